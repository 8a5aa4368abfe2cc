import type { CanvasDocument } from '../schema.js';
import { cssName, escapeHtml } from './sanitize.js';
import { type RenderElement, type RenderOptions, renderTree } from './tree.js';

/**
 * The render tree emitted as markup (exactly what react-dom/server prints for the TSX below: same
 * attribute order, same style serialisation, same escaping) and as a React component.
 */

const VOID = new Set(['img']);

function styleText(style: readonly [string, string][]): string {
  return style.map(([name, value]) => `${cssName(name)}:${value}`).join(';');
}

export function elementMarkup(element: RenderElement): string {
  const attrs = element.attrs.map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join('');
  const style = element.style.length ? ` style="${escapeHtml(styleText(element.style))}"` : '';
  if (VOID.has(element.tag)) return `<${element.tag}${attrs}${style}/>`;
  const text = element.text === undefined ? '' : escapeHtml(element.text);
  return `<${element.tag}${attrs}${style}>${text}${element.children.map(elementMarkup).join('')}</${element.tag}>`;
}

/** A standalone HTML document: the page's markup in a body with no margin, token variables on its wrapper. */
export function exportHtml(doc: CanvasDocument, options: RenderOptions = {}): string {
  const { title, root } = renderTree(doc, options);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>html,body{margin:0;padding:0;background:#fff}</style>',
    '</head>',
    `<body>${elementMarkup(root)}</body>`,
    '</html>',
    '',
  ].join('\n');
}

/** The markup of the page alone (what the HTML body holds), for comparisons and the preview. */
export function renderMarkup(doc: CanvasDocument, options: RenderOptions = {}): string {
  return elementMarkup(renderTree(doc, options).root);
}

/** A JS string literal; JSON leaves U+2028/U+2029 raw, which end a line (and a comment) in TS. */
function jsString(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function jsxElement(element: RenderElement, indent: string): string {
  const attrs = element.attrs.map(([name, value]) => ` ${name}={${jsString(value)}}`).join('');
  const style = element.style.length
    ? ` style={{${element.style.map(([name, value]) => `${jsString(name)}: ${jsString(value)}`).join(', ')}} as CSSProperties}`
    : '';
  if (VOID.has(element.tag)) return `${indent}<${element.tag}${attrs}${style} />`;
  const inner = [
    ...(element.text === undefined ? [] : [`${indent}  {${jsString(element.text)}}`]),
    ...element.children.map((child) => jsxElement(child, `${indent}  `)),
  ];
  if (inner.length === 0) return `${indent}<${element.tag}${attrs}${style} />`;
  return [`${indent}<${element.tag}${attrs}${style}>`, ...inner, `${indent}</${element.tag}>`].join('\n');
}

/** A React component (TSX, automatic JSX runtime) rendering the page; every value is a JS string literal. */
export function exportTsx(doc: CanvasDocument, options: RenderOptions = {}): string {
  const { root } = renderTree(doc, options);
  return [
    '// Exported by `argus canvas export`. Generated: edit the design document, not this file.',
    "import type { CSSProperties, ReactElement } from 'react';",
    '',
    'export default function CanvasPage(): ReactElement {',
    '  return (',
    jsxElement(root, '    '),
    '  );',
    '}',
    '',
  ].join('\n');
}
