import { createRequire } from 'node:module';
import { transform } from 'esbuild';
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  CanvasSession,
  exportHtml,
  exportTsx,
  renderMarkup,
  safeCssValue,
  safeUrl,
  type CanvasDocument,
} from '../src/index.js';
import { CARD } from './fixtures.js';

const require = createRequire(import.meta.url);
const ALLOWED_ATTRIBUTES = new Set([
  'lang',
  'charset',
  'name',
  'content',
  'data-canvas-page',
  'data-canvas-node',
  'style',
  'href',
  'src',
  'alt',
]);

/** Compiles the exported TSX with esbuild and renders it with react-dom/server. */
async function renderTsx(tsx: string): Promise<string> {
  const { code } = await transform(tsx, { loader: 'tsx', jsx: 'automatic', format: 'cjs', target: 'node20' });
  const module = { exports: {} as { default?: FunctionComponent } };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  const Page = module.exports.default;
  if (!Page) throw new Error('the TSX has no default export');
  return renderToStaticMarkup(createElement(Page));
}

function designed(): CanvasDocument {
  const session = CanvasSession.create('doc', 'Doc');
  session.patch([
    ...CARD,
    { op: 'token.set', path: 'color.brand.primary', value: '#0055ff' },
    { op: 'token.set', path: 'color.brand.primary', value: '#88aaff', mode: 'dark' },
    {
      op: 'node.update',
      nodeId: 'card',
      changes: {
        'style.borderRadius': 12,
        'style.boxShadow': '0 2px 8px rgba(0,0,0,.2)',
        'tokenRefs.borderColor': 'color.brand.primary',
        'style.border': '2px solid',
        'style.opacity': 0.9,
      },
    },
    {
      op: 'node.update',
      nodeId: 'title',
      changes: {
        'props.tag': 'h1',
        'style.fontFamily': 'sans-serif',
        'tokenRefs.color': 'color.brand.primary',
        'style.margin': 0,
      },
    },
    {
      op: 'node.insert',
      pageId: 'page-1',
      parentId: 'card',
      node: {
        id: 'pic',
        kind: 'image',
        rect: { x: 300, y: 60, width: 80, height: 80 },
        props: { src: 'data:image/png;base64,iVBORw0KGgo=', alt: 'A "pic" & <more>' },
      },
    },
    {
      op: 'node.insert',
      pageId: 'page-1',
      parentId: 'card',
      node: {
        id: 'link',
        kind: 'text',
        rect: { x: 16, y: 120, width: 200, height: 20 },
        props: { text: 'Read more', href: 'https://example.com/?a=1&b=2' },
      },
    },
  ]);
  return session.toJson();
}

/** A document carrying every attack the export must neutralise. */
function hostile(): CanvasDocument {
  const session = CanvasSession.create('evil', 'Evil </title><script>alert(1)</script>');
  session.patch([
    { op: 'token.set', path: 'color.x', value: 'red;background:url(javascript:alert(1))' },
    { op: 'token.set', path: 'color.y', value: '</style><script>alert(3)</script>' },
    {
      op: 'node.insert',
      pageId: 'page-1',
      parentId: null,
      node: {
        id: 'root',
        kind: 'frame',
        rect: { x: 0, y: 0, width: 300, height: 300 },
        props: { tag: 'script' },
        style: {
          background: 'url(javascript:alert(2))',
          color: 'red;position:fixed',
          width: 'expression(alert(4))',
          fontFamily: '"a"} body{display:none',
          backgroundImage: 'url("https://ok.example/a.png")',
          behavior: 'url(x.htc)',
        },
        tokenRefs: { color: 'color.x', borderColor: 'color.y' },
      },
    },
    {
      op: 'node.insert',
      pageId: 'page-1',
      parentId: 'root',
      node: {
        id: 'txt',
        kind: 'text',
        props: { text: '<img src=x onerror=alert(5)>\u2028alert(6)', tag: 'iframe', href: 'javascript:alert(7)' },
      },
    },
    {
      op: 'node.insert',
      pageId: 'page-1',
      parentId: 'root',
      node: { id: 'img1', kind: 'image', props: { src: 'java\nscript:alert(8)', alt: '" onerror="alert(9)' } },
    },
    {
      op: 'node.insert',
      pageId: 'page-1',
      parentId: 'root',
      node: { id: 'img2', kind: 'image', props: { src: 'data:text/html,<script>alert(10)</script>' } },
    },
    {
      op: 'node.insert',
      pageId: 'page-1',
      parentId: 'root',
      node: { id: 'link2', kind: 'frame', props: { href: '//evil.example/x' } },
    },
  ]);
  return session.toJson();
}

describe('export', () => {
  it('the TSX compiles with esbuild and renders with react-dom/server to the same markup as the HTML body', async () => {
    const doc = designed();
    const html = exportHtml(doc);
    const markup = renderMarkup(doc);
    expect(html).toContain(`<body>${markup}</body>`);
    expect(await renderTsx(exportTsx(doc))).toBe(markup);
    expect(markup).toContain('--color-brand-primary:#0055ff');
    expect(markup).toContain('border-color:var(--color-brand-primary)');
    expect(markup).toContain('<h1 data-canvas-node="title"');
    expect(markup).toContain('href="https://example.com/?a=1&amp;b=2"');
    expect(markup).toContain('alt="A &quot;pic&quot; &amp; &lt;more&gt;"');
    expect(markup).toContain('border-radius:12px');
    expect(markup).toContain('opacity:0.9');
    expect(renderMarkup(doc, { mode: 'dark' })).toContain('--color-brand-primary:#88aaff');
  });

  it('neutralises hostile props, styles, tokens and names in both outputs', async () => {
    const doc = hostile();
    const html = exportHtml(doc);
    const markup = renderMarkup(doc);
    const tsx = exportTsx(doc);
    expect(await renderTsx(tsx)).toBe(markup);
    for (const out of [html, markup]) {
      expect(out).not.toMatch(/<script|<iframe|javascript:|expression\(|\/\/evil|data:text|behavior/i);
      // values are escaped (no raw quote inside one), so every name=" is a real attribute: only these
      const names = new Set([...out.matchAll(/\s([a-zA-Z-]+)="/g)].map((match) => match[1]));
      expect([...names].filter((name) => !ALLOWED_ATTRIBUTES.has(name ?? ''))).toEqual([]);
      expect(out).not.toContain('position:fixed');
      expect(out).not.toContain('display:none');
    }
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(markup).toContain('&lt;img src=x onerror=alert(5)&gt;');
    expect(markup).toContain('background-image:url(&quot;https://ok.example/a.png&quot;)');
    expect(markup).toMatch(/<div data-canvas-node="txt"[^>]*>/);
    expect(markup).toContain('<div data-canvas-node="link2"');
    expect(markup).not.toContain('href=');
    expect(html).toContain('<title>Evil &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; - Page 1</title>');
    // the TSX holds the hostile text only inside string literals; a U+2028 cannot end one
    expect(tsx).not.toContain('\u2028');
    expect(tsx).not.toMatch(/javascript:|onerror=alert\(9\)/);
  });

  it('keeps only http(s), relative and data:image URLs and single CSS values', () => {
    expect(safeUrl('https://a.example/x.png')).toBe('https://a.example/x.png');
    expect(safeUrl('img/x.png')).toBe('img/x.png');
    expect(safeUrl('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    for (const bad of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:x',
      'vbscript:x',
      'data:text/html,x',
      'file:///etc/passwd',
      '//evil.example',
      '\\\\evil',
    ])
      expect(safeUrl(bad), bad).toBeUndefined();
    expect(safeCssValue('1px solid #333')).toBe('1px solid #333');
    for (const bad of [
      'red;color:blue',
      'x}',
      '\\3c script',
      'url(javascript:x)',
      'url(data:text/html,x)',
      'expression(1)',
      'a\nb',
    ])
      expect(safeCssValue(bad), bad).toBeUndefined();
  });
});
