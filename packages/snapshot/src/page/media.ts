import { manifest } from '@argus/protocol';
import type { z } from 'zod';
import { readFunction } from './read-kit.js';

type Media = Omit<z.output<typeof manifest.read.media.output>, 'dialogs'>;

/** `read.media`: images, videos and audio with absolute URLs and sizes, each list capped at `maxItems`. */
export const MEDIA = readFunction(
  'media',
  // the page's answer never has dialogs: the daemon adds the tab's own (a page cannot claim one)
  manifest.read.media.output.omit({ dialogs: true }),
  function (
    this: Document | Element,
    { deepAll },
    want: { images: boolean; videos: boolean; audio: boolean },
    maxItems: number,
  ) {
    let truncated = false;
    const cap = (list: Element[]) => {
      if (list.length > maxItems) {
        truncated = true;
        return list.slice(0, maxItems);
      }
      return list;
    };
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height), visible: r.width > 0 && r.height > 0 };
    };
    const duration = (el: HTMLMediaElement) => (Number.isFinite(el.duration) ? el.duration : null);
    const sources = (el: HTMLMediaElement) => [
      ...new Set(
        [el.src, ...Array.from(el.querySelectorAll('source'), (s) => s.src)].filter((src): src is string => !!src),
      ),
    ];
    const out: Omit<Media, 'truncated'> = { images: [], videos: [], audio: [] };
    if (want.images) {
      out.images = cap(deepAll(this, 'img, input[type=image]')).map((el) => {
        const img = el as HTMLImageElement;
        return {
          src: img.currentSrc || img.src || '',
          alt: img.getAttribute('alt') || '',
          naturalWidth: img.naturalWidth || 0,
          naturalHeight: img.naturalHeight || 0,
          ...box(img),
        };
      });
    }
    if (want.videos) {
      out.videos = cap(deepAll(this, 'video')).map((el) => {
        const video = el as HTMLVideoElement;
        const all = sources(video);
        return {
          src: video.currentSrc || all[0] || '',
          sources: all,
          poster: video.poster || '',
          videoWidth: video.videoWidth || 0,
          videoHeight: video.videoHeight || 0,
          duration: duration(video),
          ...box(video),
        };
      });
    }
    if (want.audio) {
      out.audio = cap(deepAll(this, 'audio')).map((el) => {
        const audio = el as HTMLAudioElement;
        const all = sources(audio);
        return { src: audio.currentSrc || all[0] || '', sources: all, duration: duration(audio) };
      });
    }
    return { ...out, truncated };
  },
);
