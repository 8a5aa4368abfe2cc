import { z } from 'zod';
import { defineCommand } from '../define.js';
import { FilePath, Overwrite } from '../common.js';

/**
 * The design canvas (issue 18): structured documents under `<workspace>/.argus/canvas/`, changed
 * by atomic patch batches with undo/redo. The model itself lives in @argus/canvas; the contract
 * carries documents as JSON (format `argus-canvas`, docs/CANVAS.md).
 */

export const DocId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a document id is 1-64 characters of A-Z a-z 0-9 _ -')
  .describe('Document id (from `canvas list`)');

/** A design-token mode's name (e.g. dark), as the render, export, lint and preview commands take it. */
export const ModeName = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/);

const DocSummary = z.object({
  id: z.string().describe('Document id'),
  name: z.string().describe('Document name'),
  revision: z.number().describe('Current revision; every patch, undo and redo adds one'),
  pages: z.number().describe('Number of pages'),
  nodes: z.number().describe('Number of nodes on all pages'),
  path: z.string().describe('The JSON file it is stored in'),
});

export const Revision = z.object({
  id: z.string().describe('Document id'),
  revision: z.number().describe('The new revision'),
  undo: z.number().describe('Batches that can still be undone'),
  redo: z.number().describe('Batches that can be redone'),
});

/** What `canvas lint` checks; @argus/canvas implements each. */
export const CANVAS_LINT_RULES = ['contrast', 'overflow', 'image-alt', 'unknown-token', 'broken-asset'] as const;

const LintFinding = z.object({
  rule: z.enum(CANVAS_LINT_RULES),
  severity: z.enum(['error', 'warning']),
  pageId: z.string().nullable().describe('The page; null for a document-wide finding (an asset)'),
  nodeId: z.string().nullable().describe('The node the finding is about'),
  nodeName: z.string().nullable(),
  message: z.string(),
});

export const canvasCommands = {
  new: defineCommand({
    name: 'canvas.new',
    cli: { verb: 'canvas new', positionals: ['name'], examples: ['argus canvas new "Landing page" --id landing'] },
    tool: 'argus_canvas_new',
    kind: 'mutation',
    scope: 'write',
    summary: 'Create an empty design document (one page) stored under .argus/canvas/.',
    input: () =>
      z.object({
        name: z.string().min(1).max(256).describe('Document name'),
        id: DocId.optional().describe('Document id; derived from the name when left out'),
      }),
    output: () => DocSummary,
  }),
  list: defineCommand({
    name: 'canvas.list',
    cli: { verb: 'canvas list' },
    tool: 'argus_canvas_list',
    kind: 'query',
    scope: 'read',
    summary: 'List the design documents of this workspace.',
    input: () => z.object({}),
    output: () =>
      z.object({
        dir: z.string().describe('Where documents are stored'),
        documents: z.array(DocSummary),
        unreadable: z
          .array(
            z.object({
              id: z.string().describe('Document id (its file name)'),
              path: z.string().describe('The file'),
              error: z.string().describe('Why it cannot be read'),
            }),
          )
          .describe('Files in the directory that are not readable documents, with why'),
      }),
  }),
  show: defineCommand({
    name: 'canvas.show',
    cli: { verb: 'canvas show', positionals: ['doc'], examples: ['argus canvas show landing --json'] },
    tool: 'argus_canvas_show',
    kind: 'query',
    scope: 'read',
    summary: 'Print a design document as JSON: pages with their flat node lists, tokens, assets, revision.',
    input: () => z.object({ doc: DocId }),
    output: () =>
      z.object({
        document: z.record(z.string(), z.unknown()).describe('The document (format argus-canvas, see docs/CANVAS.md)'),
      }),
  }),
  rm: defineCommand({
    name: 'canvas.rm',
    cli: { verb: 'canvas rm', positionals: ['doc'] },
    tool: 'argus_canvas_rm',
    kind: 'mutation',
    scope: 'write',
    summary: 'Delete a design document and its history.',
    input: () => z.object({ doc: DocId }),
    output: () => z.object({ id: z.string(), removed: z.boolean() }),
  }),
  save: defineCommand({
    name: 'canvas.save',
    cli: {
      verb: 'canvas save',
      positionals: ['doc', 'path'],
      examples: ['argus canvas save landing design/landing.json'],
    },
    tool: 'argus_canvas_save',
    kind: 'mutation',
    scope: 'write',
    summary: 'Write a design document as JSON to a file of your choosing (atomic; inside the allowed roots).',
    input: () =>
      z.object({
        doc: DocId,
        path: FilePath.describe('Where to write (relative to your directory)'),
        overwrite: Overwrite,
      }),
    output: () => z.object({ path: z.string().describe('The file written'), bytes: z.number() }),
  }),
  load: defineCommand({
    name: 'canvas.load',
    cli: {
      verb: 'canvas load',
      positionals: ['path'],
      examples: ['argus canvas load design/landing.json --id landing-copy'],
    },
    tool: 'argus_canvas_load',
    kind: 'mutation',
    scope: 'write',
    summary: 'Read a design document from a JSON file (one `canvas save` wrote) into the workspace.',
    input: () =>
      z.object({
        path: FilePath.describe('The JSON file (relative to your directory)'),
        id: DocId.optional().describe("Store it under this id instead of the file's own"),
        overwrite: Overwrite.describe('Replace an existing document with that id (else file_exists)'),
      }),
    output: () => DocSummary,
  }),
  patch: defineCommand({
    name: 'canvas.patch',
    cli: {
      verb: 'canvas patch',
      positionals: ['doc'],
      stdinJson: 'ops',
      examples: [
        `echo '[{"op":"node.update","nodeId":"title","changes":{"style.color":"#222"}}]' | argus canvas patch landing`,
        `argus canvas patch landing --base-revision 4 --ops '[{"op":"node.remove","nodeId":"promo"}]'`,
      ],
    },
    tool: 'argus_canvas_patch',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Apply a batch of operations atomically (page.create, node.insert/update/remove/reparent/reorder/duplicate, token.set); one bad operation refuses the batch (invalid_patch names its index).',
    input: () =>
      z.object({
        doc: DocId,
        ops: z
          .array(z.record(z.string(), z.unknown()))
          .min(1)
          .max(10_000)
          .describe('The operations as a JSON array (read from stdin when left out or given as -)'),
        baseRevision: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('The revision your operations were written against; another one is revision_conflict'),
      }),
    output: () =>
      Revision.extend({
        created: z.array(z.string()).describe('Ids of the nodes the batch created, in order'),
        ops: z.number().describe('Operations applied'),
      }),
  }),
  undo: defineCommand({
    name: 'canvas.undo',
    cli: { verb: 'canvas undo', positionals: ['doc'] },
    tool: 'argus_canvas_undo',
    kind: 'mutation',
    scope: 'write',
    summary: 'Take back the last patch batch (as a new revision; up to 100 deep).',
    input: () => z.object({ doc: DocId }),
    output: () => Revision,
  }),
  redo: defineCommand({
    name: 'canvas.redo',
    cli: { verb: 'canvas redo', positionals: ['doc'] },
    tool: 'argus_canvas_redo',
    kind: 'mutation',
    scope: 'write',
    summary: 'Apply again the batch the last undo took back (a new patch clears redo).',
    input: () => z.object({ doc: DocId }),
    output: () => Revision,
  }),
  export: defineCommand({
    name: 'canvas.export',
    cli: {
      verb: 'canvas export',
      positionals: ['doc'],
      examples: [
        'argus canvas export landing --html out/landing.html',
        'argus canvas export landing --tsx src/Landing.tsx --mode dark',
      ],
    },
    tool: 'argus_canvas_export',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Export a page as a standalone HTML document and/or a React component (TSX), both from one render tree and sanitised (no scripts, no on* attributes, only http(s)/relative/data:image URLs).',
    input: () =>
      z.object({
        doc: DocId,
        html: FilePath.optional().describe('Write the HTML document here (relative to your directory)'),
        tsx: FilePath.optional().describe('Write the TSX component here (relative to your directory)'),
        page: z.string().max(64).optional().describe('Page id; default the first page'),
        mode: ModeName.optional().describe('Token mode to use (e.g. dark); default values otherwise'),
        overwrite: Overwrite,
      }),
    output: () =>
      z.object({
        files: z.array(z.object({ format: z.enum(['html', 'tsx']), path: z.string(), bytes: z.number() })),
      }),
  }),
  lint: defineCommand({
    name: 'canvas.lint',
    cli: {
      verb: 'canvas lint',
      positionals: ['doc'],
      examples: ['argus canvas lint landing', 'argus canvas lint landing --mode dark'],
    },
    tool: 'argus_canvas_lint',
    kind: 'query',
    scope: 'read',
    summary:
      'Check a design: text contrast below WCAG AA, children overflowing their parent, images without alt text, token references to unknown tokens, broken image or font sources. Each finding names the node.',
    input: () =>
      z.object({
        doc: DocId,
        page: z.string().max(64).optional().describe('Page id; default every page'),
        mode: ModeName.optional().describe('Token mode to check (e.g. dark); default values otherwise'),
      }),
    output: () =>
      z.object({
        doc: z.string(),
        revision: z.number(),
        errors: z.number(),
        warnings: z.number(),
        findings: z.array(LintFinding),
      }),
  }),
};
