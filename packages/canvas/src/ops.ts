import { z } from 'zod';
import { CanvasId, NodeKind, NodeProps, Rect, Style, StyleKey, StyleValue, TokenPath } from './schema.js';

/**
 * Patch operations. Their names and shapes are fixed (issue 18) so scripts can rely on them.
 * A patch is an array of these, applied as one atomic batch.
 */

const Index = z.number().int().min(0).optional();

export const NodeInput = z.strictObject({
  id: CanvasId.optional().describe('Node id; generated when left out'),
  kind: NodeKind,
  name: z.string().max(256).optional(),
  rect: Rect.default({ x: 0, y: 0, width: 0, height: 0 }),
  props: NodeProps.default({}),
  style: Style.default({}),
  tokenRefs: z.record(StyleKey, TokenPath).default({}),
});

/** `changes` values: a number, a string, null (removes a key) or a whole object for rect/props/style/tokenRefs. */
const ChangeValue = z.union([StyleValue, z.null(), z.record(z.string(), z.union([StyleValue, z.null()]))]);

export const PatchOp = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('page.create'), page: z.strictObject({ id: CanvasId, name: z.string().max(256) }) }),
  z.strictObject({
    op: z.literal('node.insert'),
    pageId: CanvasId,
    parentId: CanvasId.nullable(),
    index: Index,
    node: NodeInput,
  }),
  z.strictObject({
    op: z.literal('node.update'),
    nodeId: CanvasId,
    changes: z.record(z.string().max(128), ChangeValue),
  }),
  z.strictObject({ op: z.literal('node.remove'), nodeId: CanvasId }),
  z.strictObject({ op: z.literal('node.reparent'), nodeId: CanvasId, parentId: CanvasId.nullable(), index: Index }),
  z.strictObject({ op: z.literal('node.reorder'), nodeId: CanvasId, index: z.number().int().min(0) }),
  z.strictObject({ op: z.literal('node.duplicate'), nodeId: CanvasId }),
  z.strictObject({
    op: z.literal('token.set'),
    path: TokenPath,
    value: z.string().max(4096),
    mode: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,32}$/)
      .optional(),
  }),
]);
export type PatchOp = z.infer<typeof PatchOp>;

/** At most this many operations in one batch. */
export const MAX_PATCH_OPS = 10_000;
export const PatchBatch = z.array(PatchOp).min(1).max(MAX_PATCH_OPS);
/** An operation as a client writes it (defaults left out). */
export type PatchOpInput = z.input<typeof PatchOp>;
