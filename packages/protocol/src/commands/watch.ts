import { z } from 'zod';
import { defineCommand } from '../define.js';
import { FilePath, Overwrite, TabId } from '../common.js';

/**
 * A person looking over the agent's shoulder: a live view of a tab served by the daemon
 * (`watch`), and a recording of a tab to JPEG frames (plus WebM when ffmpeg is present).
 */
export const watchCommands = {
  open: defineCommand({
    name: 'watch.open',
    cli: {
      verb: 'watch',
      examples: ['argus watch', 'argus watch --tab 2', 'argus watch --control --ttl 600'],
    },
    tool: 'argus_watch',
    kind: 'mutation',
    scope: 'read',
    summary:
      'A local URL (127.0.0.1) of a page that shows the tab live (screencast), its URL and the last commands run on it; open it in a browser. The token in the URL works for this tab only and expires. --control lets the viewer click and type.',
    input: () =>
      z.object({
        tab: TabId.optional(),
        control: z
          .boolean()
          .default(false)
          .describe('Let the viewer click and type in the tab (needs the write scope); default view only'),
        ttl: z.number().int().min(10).max(86_400).default(3_600).describe('Seconds the link works (at most 86400)'),
      }),
    output: () =>
      z.object({
        url: z.string().describe('Open this in a browser; the token is in the #fragment, never sent in a request line'),
        tab: z.string().describe('Id of the watched tab'),
        control: z.boolean().describe('Whether the viewer may send clicks and keys'),
        expiresAt: z.string().describe('When the link stops working (ISO 8601)'),
      }),
  }),
};

export const screencastCommands = {
  start: defineCommand({
    name: 'screencast.start',
    cli: {
      verb: 'screencast start',
      positionals: ['path'],
      examples: [
        'argus screencast start',
        'argus screencast start recordings/run1',
        'argus screencast start demo.webm --fps 10 --max-size 960',
      ],
    },
    tool: 'argus_screencast_start',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Record a tab to numbered JPEG frames plus manifest.json (timestamps), and to WebM on stop when ffmpeg is on the PATH. Stops by itself when the tab closes or the disk cap is reached; `screencast stop` ends it.',
    input: () =>
      z.object({
        tab: TabId.optional(),
        path: FilePath.optional().describe(
          'A directory for the frames, or a .webm file (frames go to <name>.frames/ beside it); default <state dir>/captures/screencast-<time>/',
        ),
        fps: z.number().int().min(1).max(30).default(5).describe('Frames per second kept at most'),
        maxSize: z.number().int().min(64).max(3840).default(1280).describe('Largest frame width or height in pixels'),
        maxMb: z
          .number()
          .min(0.05)
          .max(10_240)
          .default(500)
          .describe('Disk cap in MB for the frames; the recording stops when it is reached'),
        overwrite: Overwrite,
      }),
    output: () =>
      z.object({
        tab: z.string(),
        dir: z.string().describe('Where the frames and manifest.json go'),
        webm: z.string().nullable().describe('The WebM written on stop; null when ffmpeg is not on the PATH'),
        ffmpeg: z.boolean().describe('Whether ffmpeg was found (WebM needs it)'),
      }),
  }),
  stop: defineCommand({
    name: 'screencast.stop',
    cli: { verb: 'screencast stop', examples: ['argus screencast stop', 'argus screencast stop --tab 2'] },
    tool: 'argus_screencast_stop',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Stop a recording (the one running, or the tab given) and write its manifest; a recording that stopped by itself (tab closed, disk cap) is reported with its reason.',
    input: () => z.object({ tab: TabId.optional() }),
    output: () =>
      z.object({
        tab: z.string(),
        dir: z.string(),
        manifest: z.string().describe('Path of manifest.json'),
        frames: z.number().describe('Frames written'),
        bytes: z.number().describe('Bytes of frames written'),
        durationMs: z.number(),
        reason: z
          .enum(['stopped', 'tab_closed', 'disk_cap', 'write_failed'])
          .describe('Why it ended: stop asked, the tab closed, the disk cap was reached, a frame could not be written'),
        webm: z.string().nullable().describe('The WebM file; null when none was made (see note)'),
        note: z.string().nullable().describe('Why there is no WebM (ffmpeg missing or failed), or null'),
      }),
  }),
};
