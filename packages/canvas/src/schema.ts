import { z } from 'zod';

/**
 * The JSON projection of a canvas document: what commands read, what patches are validated
 * against and what files store. The live state is a Y.Doc (see y-state.ts) mirroring this shape.
 */

/** Ids are short and safe to put in a file name, a CSS selector and a data attribute. */
export const CanvasId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'ids are 1-64 characters of A-Z a-z 0-9 _ -')
  .describe('Id: 1-64 characters of A-Z a-z 0-9 _ -');

export const NodeKind = z.enum(['frame', 'text', 'shape', 'image', 'group', 'component-instance']);
export type NodeKind = z.infer<typeof NodeKind>;

/**
 * How deep nodes may nest on a page (a root node is at depth 1). A real design is a few dozen levels
 * deep; the export and the preview build their trees recursively, and Chromium's HTML parser stops
 * nesting at 512 elements (deeper ones come out as siblings), so the limit sits well below both.
 */
export const MAX_NODE_DEPTH = 256;

/** Kinds that may have children; text, shape and image are leaves. */
export const CONTAINER_KINDS: ReadonlySet<NodeKind> = new Set(['frame', 'group', 'component-instance']);

const Finite = z.number().finite();

/**
 * Rect values are px within ±1,000,000: room for any real page (Chromium itself lays out no further
 * than ~33.5 million px), and far from where the export's sums (x + width) stop being finite numbers.
 */
export const MAX_COORDINATE = 1_000_000;
const Coordinate = Finite.min(-MAX_COORDINATE, `rect values lie within ±${MAX_COORDINATE} px`).max(
  MAX_COORDINATE,
  `rect values lie within ±${MAX_COORDINATE} px`,
);

export const Rect = z.strictObject({
  x: Coordinate,
  y: Coordinate,
  width: Coordinate.min(0),
  height: Coordinate.min(0),
});
export type Rect = z.infer<typeof Rect>;

export const NodeProps = z.strictObject({
  text: z.string().max(100_000).optional(),
  src: z.string().max(1_000_000).optional(),
  alt: z.string().max(10_000).optional(),
  href: z.string().max(8192).optional(),
  tag: z
    .string()
    .regex(/^[a-z][a-z0-9]{0,15}$/, 'a lower-case HTML tag name')
    .optional(),
});
export type NodeProps = z.infer<typeof NodeProps>;

/** CSS property names in camelCase (`backgroundColor`), as React spells them. */
export const StyleKey = z.string().regex(/^[a-zA-Z][a-zA-Z0-9]{0,63}$/, 'a camelCase CSS property name');
export const StyleValue = z.union([z.string().max(4096), Finite]);
export const Style = z.record(StyleKey, StyleValue);
export type Style = z.infer<typeof Style>;

export const TokenPath = z
  .string()
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+){0,15}$/, 'a dotted token path such as color.brand.primary');

export const CanvasNode = z.strictObject({
  id: CanvasId,
  kind: NodeKind,
  name: z.string().max(256),
  parentId: CanvasId.nullable(),
  childIds: z.array(CanvasId),
  rect: Rect,
  props: NodeProps,
  style: Style,
  tokenRefs: z.record(StyleKey, TokenPath),
});
export type CanvasNode = z.infer<typeof CanvasNode>;

export const CanvasPage = z.strictObject({
  id: CanvasId,
  name: z.string().max(256),
  /** Top-level nodes in paint order. */
  rootIds: z.array(CanvasId),
  /** Every node of the page, flat, in depth-first document order. */
  nodes: z.array(CanvasNode),
});
export type CanvasPage = z.infer<typeof CanvasPage>;

/** A design token: its default value and per-mode values (`dark`, `light`, ...). */
export const Token = z.strictObject({
  value: z.string().max(4096),
  modes: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/), z.string().max(4096)),
});
export type Token = z.infer<typeof Token>;

export const Asset = z.strictObject({
  id: CanvasId,
  kind: z.enum(['image', 'font']),
  src: z.string().max(1_000_000),
  name: z.string().max(256),
});
export type Asset = z.infer<typeof Asset>;

export const CANVAS_FORMAT = 'argus-canvas';
export const CANVAS_VERSION = 1;

export const CanvasDocument = z.strictObject({
  format: z.literal(CANVAS_FORMAT),
  version: z.literal(CANVAS_VERSION),
  id: CanvasId,
  name: z.string().max(256),
  revision: z.number().int().min(0),
  pages: z.array(CanvasPage),
  tokens: z.record(TokenPath, Token),
  assets: z.record(CanvasId, Asset),
});
export type CanvasDocument = z.infer<typeof CanvasDocument>;
