/**
 * `canvas lint`: what a reviewer would flag in a design before it ships, each finding naming the
 * node. Text contrast is WCAG 2.x (AA: 4.5:1, 3:1 for large text) of the text's colour over what is
 * painted under it: the nodes earlier in paint order whose box contains the text's box (its
 * ancestors and the shapes it sits on), composited over the white page. Colour parsing and the
 * contrast formula are culori's.
 */
import { createRequire } from 'node:module';
import type * as Culori from 'culori';
import type { CANVAS_LINT_RULES } from '@argus/protocol';
import type { CanvasDocument, CanvasNode, CanvasPage, Rect } from './schema.js';
import { safeUrl } from './render/sanitize.js';
import { checkMode } from './render/tree.js';

type Color = Culori.Color;
// culori loads on the first lint, not with every daemon (importing it took ~0.7 s of the daemon's ~3.7 s under load; issue 16)
let culoriModule: typeof Culori | undefined;
const culori = (): typeof Culori => (culoriModule ??= createRequire(import.meta.url)('culori') as typeof Culori);

export type LintRule = (typeof CANVAS_LINT_RULES)[number];

export interface LintFinding {
  rule: LintRule;
  severity: 'error' | 'warning';
  pageId: string | null;
  nodeId: string | null;
  nodeName: string | null;
  message: string;
}

export interface LintOptions {
  /** Only this page; default every page. */
  pageId?: string | undefined;
  /** Token mode whose values are checked (`dark`); the default values otherwise. */
  mode?: string | undefined;
}

const WHITE: Color = { mode: 'rgb', r: 1, g: 1, b: 1, alpha: 1 };
const BLACK: Color = { mode: 'rgb', r: 0, g: 0, b: 0, alpha: 1 };
const DATA_URL = /^data:([^;,]*)(;base64)?,(.*)$/is;

/** A node's value for a style property: its token's (in the mode) when it refers to a known one, else its own. */
function styleValue(doc: CanvasDocument, node: CanvasNode, name: string, mode: string | undefined): string | undefined {
  const path = node.tokenRefs[name];
  const token = path === undefined ? undefined : doc.tokens[path];
  if (token) return (mode === undefined ? undefined : token.modes[mode]) ?? token.value;
  const own = node.style[name];
  return own === undefined ? undefined : String(own);
}

function colourOf(value: string | undefined): Color | undefined {
  if (value === undefined) return undefined;
  const colour = culori().parse(value.trim());
  return colour && colour.mode ? colour : undefined;
}

/** The CSS pixel size of a font-size value (px, rem/em at 16 px, pt); undefined when it cannot say. */
function pixels(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)(px|rem|em|pt)?$/.exec(value.trim());
  if (!match) return undefined;
  const size = Number(match[1]);
  const unit = match[2] ?? 'px';
  return unit === 'px' ? size : unit === 'pt' ? (size * 4) / 3 : size * 16;
}

function isBold(value: string | undefined): boolean {
  if (value === undefined) return false;
  return value === 'bold' || value === 'bolder' || Number(value) >= 700;
}

function contains(outer: Rect, inner: Rect): boolean {
  return (
    outer.x <= inner.x + 0.5 &&
    outer.y <= inner.y + 0.5 &&
    outer.x + outer.width >= inner.x + inner.width - 0.5 &&
    outer.y + outer.height >= inner.y + inner.height - 0.5
  );
}

const DATA_FONT = /^data:(font\/|application\/(x-)?font-)/i;

function brokenSource(src: string | undefined, kind: 'image' | 'font' = 'image'): string | undefined {
  if (src === undefined || src.trim() === '') return 'has no source';
  if (safeUrl(src) === undefined && !(kind === 'font' && DATA_FONT.test(src.trim())))
    return `has a source that is not an http(s), relative or data:image URL (${src.slice(0, 60)})`;
  const data = DATA_URL.exec(src.trim());
  if (!data) return undefined;
  const payload = data[3] ?? '';
  if (payload === '') return 'has an empty data: URL';
  if (data[2] && !/^[A-Za-z0-9+/\s]*={0,2}$/.test(payload)) return 'has a data: URL whose base64 is broken';
  return undefined;
}

function lintPage(doc: CanvasDocument, page: CanvasPage, mode: string | undefined, findings: LintFinding[]): void {
  const byId = new Map(page.nodes.map((node) => [node.id, node]));
  const absolute = new Map<string, Rect>();
  const absOf = (node: CanvasNode): Rect => {
    const known = absolute.get(node.id);
    if (known) return known;
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    const origin = parent ? absOf(parent) : { x: 0, y: 0, width: 0, height: 0 };
    const rect = {
      x: origin.x + node.rect.x,
      y: origin.y + node.rect.y,
      width: node.rect.width,
      height: node.rect.height,
    };
    absolute.set(node.id, rect);
    return rect;
  };
  const find = (rule: LintRule, severity: LintFinding['severity'], node: CanvasNode | null, message: string) =>
    findings.push({ rule, severity, pageId: page.id, nodeId: node?.id ?? null, nodeName: node?.name ?? null, message });
  const inherited = (node: CanvasNode, name: string): string | undefined => {
    for (let at: CanvasNode | undefined = node; at; at = at.parentId === null ? undefined : byId.get(at.parentId)) {
      const value = styleValue(doc, at, name, mode);
      if (value !== undefined) return value;
    }
    return undefined;
  };

  page.nodes.forEach((node, order) => {
    for (const [property, path] of Object.entries(node.tokenRefs)) {
      if (!(path in doc.tokens))
        find(
          'unknown-token',
          'error',
          node,
          `${property} refers to the token "${path}", which the document does not define`,
        );
    }
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    if (parent) {
      const { x, y, width, height } = node.rect;
      if (x < -0.5 || y < -0.5 || x + width > parent.rect.width + 0.5 || y + height > parent.rect.height + 0.5) {
        const clipped = styleValue(doc, parent, 'overflow', mode) === 'hidden' ? ' and is clipped' : '';
        find(
          'overflow',
          'warning',
          node,
          `overflows its parent "${parent.name}" (${parent.id}): ${x},${y} ${width}x${height} inside ${parent.rect.width}x${parent.rect.height}${clipped}`,
        );
      }
    }
    if (node.kind === 'image') {
      if (node.props.alt === undefined)
        find('image-alt', 'error', node, 'is an image without alt text (set props.alt; "" marks it decorative)');
      const broken = brokenSource(node.props.src);
      if (broken) find('broken-asset', 'error', node, `is an image that ${broken}`);
    }
    if (node.kind !== 'text' || !node.props.text?.trim()) return;
    const foreground = colourOf(inherited(node, 'color')) ?? BLACK;
    // what is painted under the text: earlier nodes whose box holds it, bottom to top, over white
    const box = absOf(node);
    let backdrop: Color = WHITE;
    for (const under of [...page.nodes.slice(0, order), node]) {
      const fill = colourOf(
        styleValue(doc, under, 'backgroundColor', mode) ?? styleValue(doc, under, 'background', mode),
      );
      if (fill && contains(absOf(under), box)) backdrop = culori().blend([backdrop, fill], 'normal');
    }
    const text = culori().blend([backdrop, foreground], 'normal');
    const ratio = culori().wcagContrast(text, backdrop);
    const size = pixels(inherited(node, 'fontSize')) ?? 16;
    const large = size >= 24 || (size >= 18.66 && isBold(inherited(node, 'fontWeight')));
    const needed = large ? 3 : 4.5;
    if (ratio < needed) {
      find(
        'contrast',
        'error',
        node,
        `text contrast ${ratio.toFixed(2)}:1 is below WCAG AA ${needed}:1 for ${large ? 'large' : 'normal'} text (${size}px)`,
      );
    }
  });
}

/** Every finding of the document (or one page), in page then paint order. */
export function lintDocument(doc: CanvasDocument, options: LintOptions = {}): LintFinding[] {
  checkMode(doc, options.mode);
  const findings: LintFinding[] = [];
  for (const asset of Object.values(doc.assets)) {
    const broken = brokenSource(asset.src, asset.kind);
    if (broken)
      findings.push({
        rule: 'broken-asset',
        severity: 'error',
        pageId: null,
        nodeId: null,
        nodeName: null,
        message: `asset "${asset.name}" (${asset.id}) ${broken}`,
      });
  }
  const pages = options.pageId === undefined ? doc.pages : doc.pages.filter((page) => page.id === options.pageId);
  for (const page of pages) lintPage(doc, page, options.mode, findings);
  return findings;
}
