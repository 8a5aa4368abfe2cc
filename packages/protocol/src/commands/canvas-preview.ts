import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TabId, Target, UnreportedDialogs } from '../common.js';
import { DocId, ModeName } from './canvas.js';

/**
 * The canvas seen in the browser: a live preview tab of a document (the same render tree as
 * `canvas export`), and the way back from what a snapshot shows to the document's nodes.
 */
export const canvasPreviewCommands = {
  open: defineCommand({
    name: 'canvas.open',
    cli: {
      verb: 'canvas open',
      positionals: ['doc'],
      examples: ['argus canvas open landing', 'argus canvas open landing --mode dark'],
    },
    tool: 'argus_canvas_open',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Show a design document in a new tab of the managed browser, updated in place (no reload) after every patch, undo and redo; elements carry data-canvas-node ids.',
    input: () =>
      z.object({
        doc: DocId,
        page: z.string().max(64).optional().describe('Page id; default the first page'),
        mode: ModeName.optional().describe('Token mode to use (e.g. dark); default values otherwise'),
      }),
    output: () =>
      z.object({
        doc: z.string().describe('Document id'),
        tab: z.string().describe('Id of the preview tab (now the active tab)'),
        revision: z.number().describe('The revision shown'),
      }),
  }),
  nodeOf: defineCommand({
    name: 'canvas.nodeOf',
    cli: {
      verb: 'canvas node-of',
      positionals: ['target'],
      examples: ['argus canvas node-of e12', 'argus canvas node-of "text=Sign up"'],
    },
    tool: 'argus_canvas_node_of',
    kind: 'query',
    scope: 'read',
    summary:
      'The canvas node id of an element of a preview tab (a snapshot ref or a locator); the other way, target a node with [data-canvas-node="<id>"].',
    input: () => z.object({ target: Target, tab: TabId.optional() }),
    output: () =>
      z.object({
        element: z.string().describe('The element the target resolved to'),
        node: z.string().nullable().describe('Id of the canvas node it belongs to (the nearest one); null outside any'),
        doc: z.string().nullable().describe('The document the preview shows; null when the tab is no canvas preview'),
        dialogs: UnreportedDialogs,
      }),
  }),
  import: defineCommand({
    name: 'canvas.import',
    cli: {
      verb: 'canvas import',
      positionals: ['target'],
      examples: [
        'argus canvas import e12',
        'argus canvas import ".pricing-card" --into landing',
        'argus canvas import e3 --id hero',
      ],
    },
    tool: 'argus_canvas_import',
    kind: 'mutation',
    scope: 'write',
    summary:
      "Turn a live page element's subtree into canvas nodes (boxes from layout, computed colours, fonts, borders, radii, shadows, text, images) in a new document or --into one, so it can be edited and exported. One undoable batch.",
    input: () =>
      z.object({
        target: Target,
        into: DocId.optional().describe('Add to this document (a new top-level node); default: a new document'),
        id: DocId.optional().describe('Id of the new document; derived from the page title when left out'),
        page: z.string().max(64).optional().describe('With --into: the page to add to; default its first page'),
        maxNodes: z.number().int().min(1).max(5000).default(1500).describe('Stop after this many nodes (and say so)'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        doc: z.string().describe('Document id'),
        revision: z.number().describe('Its revision after the import'),
        root: z.string().describe('Id of the node holding the imported element'),
        nodes: z.number().describe('Nodes created'),
        truncated: z.boolean().describe('True when the element had more than maxNodes nodes'),
        skipped: z.number().describe('Hidden elements left out'),
        element: z.string().describe('The element the target resolved to'),
        size: z.string().describe('The imported box, WIDTHxHEIGHT in CSS px'),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['element'],
  }),
};
