import { ArgusError } from '@argus/protocol';
import type { CanvasDocument, CanvasNode, CanvasPage } from '../schema.js';
import { cssValue, safeCssValue, safeUrl } from './sanitize.js';

/**
 * One render tree, emitted twice (HTML and TSX): every decision about tags, attributes, styles and
 * what to drop is made here, once, so the two outputs cannot drift apart.
 */
export interface RenderElement {
  tag: string;
  /** Attributes in output order; values already safe (URLs checked), not yet escaped. */
  attrs: [string, string][];
  /** CSS declarations in output order (camelCase name, final string value). */
  style: [string, string][];
  text?: string;
  children: RenderElement[];
}

export interface RenderOptions {
  pageId?: string;
  /** Token mode whose values are used (`dark`); the default values otherwise. */
  mode?: string;
}

export interface RenderResult {
  title: string;
  page: CanvasPage;
  root: RenderElement;
}

/** Tags a text node may ask for in `props.tag`; anything else renders as a div. */
const TEXT_TAGS = new Set([
  'p',
  'span',
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'label',
  'strong',
  'em',
  'small',
  'li',
  'button',
]);
const BOX_TAGS = new Set([
  'div',
  'section',
  'header',
  'footer',
  'nav',
  'main',
  'article',
  'aside',
  'ul',
  'ol',
  'li',
  'button',
  'form',
]);

export function tokenVariable(path: string): string {
  return `--${path.replaceAll('.', '-')}`;
}

function tagOf(node: CanvasNode): string {
  if (node.kind === 'image') return 'img';
  if (node.props.href !== undefined && safeUrl(node.props.href) !== undefined) return 'a';
  const wanted = node.props.tag;
  if (node.kind === 'text') return wanted && TEXT_TAGS.has(wanted) ? wanted : 'div';
  return wanted && BOX_TAGS.has(wanted) ? wanted : 'div';
}

function styleOf(node: CanvasNode, tokens: ReadonlySet<string>): [string, string][] {
  const style: [string, string][] = [
    ['position', 'absolute'],
    ['left', `${node.rect.x}px`],
    ['top', `${node.rect.y}px`],
    ['width', `${node.rect.width}px`],
    ['height', `${node.rect.height}px`],
    ['boxSizing', 'border-box'],
  ];
  if (node.kind === 'image') style.push(['objectFit', 'cover'], ['display', 'block']);
  const fixed = new Set(style.map(([name]) => name));
  for (const [name, raw] of Object.entries(node.style)) {
    if (fixed.has(name) || name in node.tokenRefs) continue;
    const value = cssValue(name, raw);
    if (value !== undefined && value !== '') style.push([name, value]);
  }
  for (const [name, path] of Object.entries(node.tokenRefs)) {
    if (fixed.has(name)) continue;
    // an unknown token falls back to the node's own value for that property, if it has one
    const fallback = node.style[name] === undefined ? undefined : cssValue(name, node.style[name]);
    if (tokens.has(path)) style.push([name, `var(${tokenVariable(path)}${fallback ? `, ${fallback}` : ''})`]);
    else if (fallback) style.push([name, fallback]);
  }
  return style;
}

function elementOf(
  page: CanvasPage,
  byId: Map<string, CanvasNode>,
  node: CanvasNode,
  tokens: ReadonlySet<string>,
): RenderElement {
  const tag = tagOf(node);
  const attrs: [string, string][] = [['data-canvas-node', node.id]];
  if (tag === 'a') attrs.push(['href', safeUrl(node.props.href) ?? '#']);
  if (tag === 'img') {
    const src = safeUrl(node.props.src);
    if (src !== undefined) attrs.push(['src', src]);
    attrs.push(['alt', node.props.alt ?? '']);
  }
  const children = node.childIds.flatMap((id) => {
    const child = byId.get(id);
    return child ? [elementOf(page, byId, child, tokens)] : [];
  });
  const element: RenderElement = { tag, attrs, style: styleOf(node, tokens), children };
  if (tag !== 'img' && node.props.text !== undefined && node.props.text !== '') element.text = node.props.text;
  return element;
}

/** A document's page by id (its first page when no id is given); `invalid_input` naming the pages there are. */
export function pageOf(doc: CanvasDocument, pageId: string | undefined): CanvasPage {
  const page = pageId === undefined ? doc.pages[0] : doc.pages.find((candidate) => candidate.id === pageId);
  if (!page) {
    throw new ArgusError(
      'invalid_input',
      `No page "${pageId ?? ''}" in "${doc.id}". Pages: ${doc.pages.map((p) => p.id).join(', ') || 'none'}.`,
    );
  }
  return page;
}

/**
 * Refuses a token mode no token of the document has (`invalid_input` naming the modes there are):
 * an unknown mode would silently render or lint the default values, which looks like a result.
 */
export function checkMode(doc: CanvasDocument, mode: string | undefined): void {
  if (mode === undefined) return;
  const modes = new Set(Object.values(doc.tokens).flatMap((token) => Object.keys(token.modes)));
  if (modes.has(mode)) return;
  throw new ArgusError(
    'invalid_input',
    `No token of "${doc.id}" has a mode "${mode}". ${modes.size ? `Modes: ${[...modes].sort().join(', ')}.` : 'It has no modes: leave --mode out.'}`,
    { details: { mode, modes: [...modes].sort() } },
  );
}

/** The page as one absolutely positioned tree inside a relative wrapper that carries the token variables. */
export function renderTree(doc: CanvasDocument, options: RenderOptions = {}): RenderResult {
  const page = pageOf(doc, options.pageId);
  checkMode(doc, options.mode);
  const byId = new Map(page.nodes.map((node) => [node.id, node]));
  const known = new Set(Object.keys(doc.tokens));
  const roots = page.rootIds.flatMap((id) => {
    const node = byId.get(id);
    return node ? [node] : [];
  });
  const width = Math.max(0, ...roots.map((node) => node.rect.x + node.rect.width));
  const height = Math.max(0, ...roots.map((node) => node.rect.y + node.rect.height));
  const style: [string, string][] = [];
  for (const [path, token] of Object.entries(doc.tokens)) {
    const value = safeCssValue((options.mode === undefined ? undefined : token.modes[options.mode]) ?? token.value);
    if (value !== undefined && value !== '') style.push([tokenVariable(path), value]);
  }
  style.push(['position', 'relative'], ['width', `${width}px`], ['height', `${height}px`], ['overflow', 'hidden']);
  const root: RenderElement = {
    tag: 'div',
    attrs: [['data-canvas-page', page.id]],
    style,
    children: roots.map((node) => elementOf(page, byId, node, known)),
  };
  return { title: `${doc.name} - ${page.name}`, page, root };
}
