import { bytes, duration } from './format.js';
import type { RenderersOf } from './types.js';

export const watchRenderers: RenderersOf<'watch'> = {
  'watch.open': (output) =>
    [
      output.url,
      `tab ${output.tab}, ${output.control ? 'viewer may click and type' : 'view only'}, link works until ${output.expiresAt}`,
    ].join('\n'),
};

export const screencastRenderers: RenderersOf<'screencast'> = {
  'screencast.start': (output) =>
    [
      `recording tab ${output.tab} to ${output.dir}`,
      output.webm
        ? `WebM on stop: ${output.webm}`
        : 'no WebM: ffmpeg is not on the PATH (frames and manifest.json only)',
    ].join('\n'),
  'screencast.stop': (output) =>
    [
      `${output.frames} frames (${bytes(output.bytes)}, ${duration(output.durationMs)}) in ${output.dir}, ended: ${output.reason.replace('_', ' ')}`,
      `manifest ${output.manifest}`,
      output.webm ? `WebM ${output.webm}` : (output.note ?? 'no WebM'),
    ].join('\n'),
};
