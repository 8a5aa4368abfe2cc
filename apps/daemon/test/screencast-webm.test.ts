import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFfmpeg } from '../src/watch/ffmpeg.js';
import { useHarness } from './harness.js';

// Issue 20, screencast to WebM: with ffmpeg on the PATH a recording ends as a VP9 WebM that
// ffprobe reads back. Skipped, with the reason in its title, on a machine without ffmpeg.

const ffmpeg = findFfmpeg();
const ffprobe = ffmpeg ? join(ffmpeg, '..', 'ffprobe') : undefined;
const h = useHarness();

describe.skipIf(!ffmpeg)(
  `argus screencast to WebM (${ffmpeg ? `ffmpeg at ${ffmpeg}` : 'SKIPPED: no ffmpeg on the PATH'})`,
  () => {
    it('writes a WebM of the recorded frames that ffprobe reads as VP9 with as many frames', async () => {
      const tab = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') })).id;
      const webm = join(h.workspace, 'clips', 'run.webm');
      const started = await h.client.screencast.start.mutate({ tab, path: webm, fps: 10 });
      expect(started).toMatchObject({ tab, webm, ffmpeg: true, dir: join(h.workspace, 'clips', 'run.frames') });
      for (let i = 0; i < 4; i++) {
        await h.client.page.eval.mutate({ tab, js: `document.body.style.background = 'hsl(${i * 90}, 80%, 50%)'` });
        await new Promise((done) => setTimeout(done, 200));
      }
      await expect
        .poll(() => readdirSync(started.dir).filter((name) => name.endsWith('.jpg')).length, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(2);
      const result = await h.client.screencast.stop.mutate({ tab });
      expect(result).toMatchObject({ reason: 'stopped', webm, note: null });
      const probe = JSON.parse(
        execFileSync(ffprobe ?? 'ffprobe', [
          '-v',
          'error',
          '-count_frames',
          '-show_entries',
          'stream=codec_name,nb_read_frames,width,height:format=format_name',
          '-of',
          'json',
          webm,
        ]).toString(),
      ) as {
        streams: Array<{ codec_name: string; nb_read_frames: string; width: number; height: number }>;
        format: { format_name: string };
      };
      expect(probe.format.format_name).toContain('webm');
      expect(probe.streams[0]?.codec_name).toBe('vp9');
      expect(Number(probe.streams[0]?.nb_read_frames)).toBeGreaterThanOrEqual(result.frames);
      expect((probe.streams[0]?.width ?? 0) % 2).toBe(0);
    });
  },
);
