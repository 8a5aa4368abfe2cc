import { z } from 'zod';
import { defineCommand } from '../define.js';
import { FilePath, Overwrite, TabId } from '../common.js';

const OutPath = FilePath;

export const visualCommands = {
  pdf: defineCommand({
    name: 'visual.pdf',
    cli: {
      verb: 'pdf',
      positionals: ['path'],
      examples: [
        'argus pdf',
        'argus pdf report.pdf --format a4 --landscape',
        'argus pdf out.pdf --margins "1cm 2cm" --background',
      ],
    },
    tool: 'argus_pdf',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Print the page (the top document) to a PDF file (headless browsers only; fails with frame_chosen while a frame is chosen with `argus frame`).',
    input: () =>
      z.object({
        path: OutPath.optional().describe(
          'Where to write the PDF (relative to your directory; inside your project, the temp dir or an allowed root); default: <state dir>/captures/',
        ),
        format: z.enum(['letter', 'a4', 'legal']).default('letter').describe('Paper size'),
        landscape: z.boolean().default(false).describe('Landscape orientation'),
        margins: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe(
            'CSS lengths: one value for all sides, or 2-4 values like CSS margin ("1cm", "10mm 20mm", "0.5in 1in 0.5in 1in"); default 0.4in',
          ),
        background: z.boolean().default(false).describe('Print background colours and images'),
        overwrite: Overwrite,
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        path: z.string(),
        bytes: z.number(),
        format: z.string(),
        landscape: z.boolean(),
      }),
  }),
  responsive: defineCommand({
    name: 'visual.responsive',
    cli: {
      verb: 'responsive',
      positionals: ['prefix'],
      examples: ['argus responsive', 'argus responsive shots/home --full'],
    },
    tool: 'argus_responsive',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Screenshots at phone (375x812), tablet (768x1024) and desktop (1280x720) sizes in one call; the viewport is restored after. Each is of the tab as shown (--full: of the top document, which fails with frame_chosen while a frame is chosen).',
    input: () =>
      z.object({
        prefix: OutPath.optional().describe(
          'Path prefix; files are <prefix>-<W>x<H>.png (relative to your directory; inside your project, the temp dir or an allowed root); default: <state dir>/captures/',
        ),
        full: z
          .boolean()
          .default(false)
          .describe('Capture the full scrollable top document at each size (not while a frame is chosen)'),
        overwrite: Overwrite,
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        shots: z.array(
          z.object({
            viewport: z.string().describe('WxH'),
            path: z.string(),
            width: z.number(),
            height: z.number(),
            bytes: z.number(),
          }),
        ),
      }),
  }),
  archive: defineCommand({
    name: 'visual.archive',
    cli: { verb: 'archive', positionals: ['path'], examples: ['argus archive', 'argus archive page.mhtml'] },
    tool: 'argus_archive',
    kind: 'mutation',
    scope: 'write',
    summary: 'Save the page with its resources as one MHTML file (the whole tab: every frame in it).',
    input: () =>
      z.object({
        path: OutPath.optional().describe(
          'Where to write the .mhtml (relative to your directory; inside your project, the temp dir or an allowed root); default: <state dir>/captures/',
        ),
        overwrite: Overwrite,
        tab: TabId.optional(),
      }),
    output: () => z.object({ path: z.string(), bytes: z.number() }),
  }),
};
