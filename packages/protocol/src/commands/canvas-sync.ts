import { z } from 'zod';
import { defineCommand } from '../define.js';
import { DocId, Revision } from './canvas.js';
import { LeaseInfo, LeaseTtl, leaseCommands } from './leases.js';

/**
 * Several clients on one design document: an edit lease (others' changes get canvas_leased), and
 * the document's Yjs updates through the daemon, so a program can keep a live replica (a Y.Doc),
 * see every other client's change as it lands and send its own edits back (docs/CANVAS.md).
 */

/** A Yjs update or state vector, base64 (Yjs' binary encoding, version 1). */
const Base64 = z
  .string()
  .max(28_000_000)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');

/** What anyone may see of a document's lease: the tab lease's view, keyed by document. */
const CanvasLeaseInfo = LeaseInfo.omit({ tab: true }).extend({
  doc: z.string().describe('Document id the lease is on'),
});

export const CANVAS_UPDATE_KINDS = ['state', 'patch', 'undo', 'redo', 'push', 'import', 'reset', 'removed'] as const;

export const canvasSyncCommands = {
  lease: defineCommand({
    name: 'canvas.lease',
    cli: {
      verb: 'canvas lease',
      positionals: ['doc'],
      examples: [
        'argus canvas lease landing',
        'export ARGUS_LEASE=$(argus canvas lease landing --ttl 5m --json | jq -r .lease)',
      ],
    },
    tool: 'argus_canvas_lease',
    kind: 'mutation',
    scope: 'write',
    summary:
      "Take the edit lease on a design document: others' patches, undo, redo and pushes fail with canvas_leased (or wait with --lease-wait) until it is released or expires; reading and exporting still work. Returns the lease id the holder sends back (ARGUS_LEASE / --lease).",
    input: () =>
      z.object({
        doc: DocId,
        ttl: LeaseTtl.describe(
          'How long the lease lasts without a change from its holder (1s..1h); every change the holder makes renews it',
        ),
      }),
    output: () =>
      CanvasLeaseInfo.extend({
        lease: z.string().describe('The lease id: the secret that proves the lease; send it back with every change'),
        renewed: z.boolean().describe('True when the caller already held it and the lease was renewed'),
      }),
  }),
  release: defineCommand({
    name: 'canvas.release',
    cli: {
      verb: 'canvas release',
      positionals: ['lease'],
      examples: ['argus canvas release', 'argus canvas release lease_3kQ…'],
    },
    tool: 'argus_canvas_release',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Release a design document edit lease: the one named, else every one the caller presents (ARGUS_LEASE) or took on this connection.',
    input: () =>
      z.object({
        lease: leaseCommands.release.input.shape.lease.describe(
          "The lease id `canvas lease` returned; default: the caller's own",
        ),
      }),
    output: () => z.object({ released: z.array(z.string()).describe('Document ids whose lease ended') }),
  }),
  leases: defineCommand({
    name: 'canvas.leases',
    cli: { verb: 'canvas leases', examples: ['argus canvas leases'] },
    tool: 'argus_canvas_leases',
    kind: 'query',
    scope: 'read',
    summary: 'List design document edit leases: document, holder, expiry (never the lease ids).',
    input: () => z.object({}),
    output: () => z.object({ leases: z.array(CanvasLeaseInfo) }),
  }),
  updates: defineCommand({
    name: 'canvas.updates',
    cli: {
      verb: 'canvas updates',
      positionals: ['doc'],
      examples: ['argus canvas updates landing', 'argus canvas updates landing --json'],
    },
    tool: false,
    kind: 'subscription',
    scope: 'read',
    summary:
      "Stream a design document's Yjs updates: first its state (since --since, a state vector), then one update per change any client makes (patch, undo, redo, push), until Ctrl-C. Apply them to a Y.Doc to keep a live replica.",
    input: () =>
      z.object({
        doc: DocId,
        since: Base64.optional().describe(
          'A Yjs state vector (base64): the first update then holds only what it lacks',
        ),
      }),
    output: () =>
      z.object({
        doc: z.string().describe('Document id'),
        revision: z.number().describe('The revision after this update'),
        kind: z
          .enum(CANVAS_UPDATE_KINDS)
          .describe(
            'state: the starting state; reset: the document was replaced (load --overwrite), start a new replica from this update; removed: it was deleted, the stream ends',
          ),
        by: z.string().nullable().describe('The client that made the change (informational); null for the daemon'),
        update: z.string().describe('The Yjs update, base64 (empty for removed)'),
        bytes: z.number().describe('Size of the update in bytes'),
        replica: z
          .string()
          .describe("This subscription's id: pushes naming it (canvas push --replica) are not echoed back to it"),
      }),
  }),
  push: defineCommand({
    name: 'canvas.push',
    cli: {
      verb: 'canvas push',
      positionals: ['doc'],
      examples: ['argus canvas push landing --update "$(base64 -w0 edit.bin)"'],
    },
    tool: false,
    kind: 'mutation',
    scope: 'write',
    summary:
      "Apply a Yjs update made on a replica (from `canvas updates`) to a design document: checked whole on a copy first (a document it would make invalid, or one built on state the daemon lacks, is refused and nothing changes); it becomes a new revision that every subscriber sees. Not undoable with `canvas undo` (it is the pushing client's own history).",
    input: () =>
      z.object({
        doc: DocId,
        update: Base64.min(4).describe('The Yjs update, base64'),
        replica: z
          .string()
          .max(64)
          .optional()
          .describe(
            'The id of the `canvas updates` subscription feeding the replica the update comes from: it is not sent back there',
          ),
      }),
    output: () => Revision,
  }),
};
