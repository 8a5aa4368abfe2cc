import { z } from 'zod';
import { defineCommand } from '../define.js';
import { ActionEffects, FilePath, IncludeDiff, Overwrite, TabId, Target, TimeoutMs } from '../common.js';

export const DownloadInfo = z.object({
  id: z.string().describe('Download id (Chrome guid)'),
  url: z.string().describe('Where it was downloaded from'),
  filename: z.string().describe('File name suggested by the server'),
  state: z.enum(['inProgress', 'completed', 'canceled']).describe('Download state'),
  path: z.string().nullable().describe('Saved file (set once completed)'),
  bytes: z.number().describe('Bytes received'),
  totalBytes: z.number().describe('Expected size, 0 when unknown'),
});

/** Moving files in and out of the browser: uploads, downloads. */
export const filesCommands = {
  upload: defineCommand({
    name: 'files.upload',
    cli: {
      verb: 'upload',
      positionals: ['target', 'files...'],
      examples: [
        'argus upload e12 report.pdf',
        'argus upload "#avatar" a.png b.png',
        'argus upload e3 photo.jpg   # a button that opens a file chooser',
      ],
    },
    tool: 'argus_upload',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Set the files of a file input, or of the file chooser a button opens (the chooser is intercepted, never shown).',
    input: () =>
      z.object({
        target: Target.describe('A file input, or an element whose click opens a file chooser (ref or CSS selector)'),
        files: z.array(FilePath).min(1).max(100).describe('Files to upload, relative to your directory'),
        diff: IncludeDiff,
        tab: TabId.optional(),
        timeoutMs: TimeoutMs.default(5_000).describe('How long to wait for the element and for the file chooser'),
      }),
    output: () =>
      ActionEffects.extend({
        element: z.string().describe('The input or button used'),
        files: z.array(z.string()).describe('Absolute paths set on the input'),
        via: z
          .enum(['input', 'chooser'])
          .describe('input: set directly on a file input; chooser: through an intercepted file chooser'),
      }),
  }),
  download: defineCommand({
    name: 'files.download',
    cli: {
      verb: 'download',
      positionals: ['source', 'path'],
      examples: ['argus download https://example.com/report.csv', 'argus download e14 out/report.csv'],
    },
    tool: 'argus_download',
    kind: 'mutation',
    scope: 'write',
    summary: 'Download a URL, or click a link/button that starts a download, and wait until the file is saved.',
    input: () =>
      z.object({
        source: z.string().min(1).max(8192).describe('An http(s) URL to download, or a ref / CSS selector to click'),
        path: FilePath.optional().describe(
          'Where to save (file or existing directory, relative to your directory; inside your project, the temp dir or an allowed root); default <state dir>/downloads',
        ),
        overwrite: Overwrite,
        tab: TabId.optional(),
        timeoutMs: TimeoutMs.default(60_000).describe('How long to wait for the download to finish'),
      }),
    output: () => DownloadInfo,
  }),
  downloads: defineCommand({
    name: 'files.downloads',
    cli: { verb: 'downloads' },
    tool: 'argus_downloads',
    kind: 'query',
    scope: 'read',
    summary: 'List the downloads of this browser session (newest last) and the folder they are saved in.',
    input: () => z.object({}),
    output: () => z.object({ dir: z.string().describe('Default download folder'), downloads: z.array(DownloadInfo) }),
  }),
};
