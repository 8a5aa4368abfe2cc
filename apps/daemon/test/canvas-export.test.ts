import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();
const NODE_MODULES = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules');

/** A 16x16 PNG with a diagonal, so an image that is scaled or missing shows in the diff. */
function pngDataUrl(): string {
  const png = new PNG({ width: 16, height: 16 });
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) {
      const i = (y * 16 + x) * 4;
      png.data.set(x === y ? [200, 30, 30, 255] : [30, 120, 200, 255], i);
    }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

const DESIGN = [
  { op: 'token.set', path: 'color.brand', value: '#2255dd' },
  { op: 'token.set', path: 'color.ink', value: '#1a1a1a' },
  { op: 'token.set', path: 'radius.card', value: '16px' },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: null,
    node: {
      id: 'hero',
      kind: 'frame',
      rect: { x: 0, y: 0, width: 1280, height: 800 },
      style: { backgroundColor: '#f4f6fb' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'hero',
    node: {
      id: 'card',
      kind: 'frame',
      rect: { x: 140, y: 120, width: 620, height: 420 },
      style: { backgroundColor: '#ffffff', boxShadow: '0 8px 24px rgba(0,0,0,0.15)', border: '1px solid #dde' },
      tokenRefs: { borderRadius: 'radius.card' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'card',
    node: {
      id: 'title',
      kind: 'text',
      rect: { x: 40, y: 40, width: 540, height: 60 },
      props: { text: 'Ship designs as code', tag: 'h1' },
      style: { margin: 0, fontSize: 40, fontWeight: 700, fontFamily: 'sans-serif', lineHeight: 1.2 },
      tokenRefs: { color: 'color.ink' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'card',
    node: {
      id: 'body',
      kind: 'text',
      rect: { x: 40, y: 120, width: 540, height: 80 },
      props: { text: 'One render tree, two outputs: <HTML> & "TSX".' },
      style: { fontSize: 20, fontFamily: 'serif', color: '#444' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'card',
    node: {
      id: 'cta',
      kind: 'frame',
      rect: { x: 40, y: 320, width: 220, height: 56 },
      style: { borderRadius: 28 },
      tokenRefs: { backgroundColor: 'color.brand' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'cta',
    node: {
      id: 'cta-label',
      kind: 'text',
      rect: { x: 0, y: 14, width: 220, height: 28 },
      props: { text: 'Get started' },
      style: { color: '#fff', textAlign: 'center', fontSize: 20, fontFamily: 'sans-serif' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'hero',
    node: {
      id: 'pic',
      kind: 'image',
      rect: { x: 820, y: 160, width: 320, height: 320 },
      props: { src: pngDataUrl(), alt: 'diagonal' },
      style: { borderRadius: 8 },
    },
  },
];

async function shot(): Promise<PNG> {
  const { base64 } = await h.client.page.screenshot.mutate({ base64: true });
  return PNG.sync.read(Buffer.from(base64 ?? '', 'base64'));
}

function diffRatio(a: PNG, b: PNG): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  const changed = pixelmatch(a.data, b.data, undefined, a.width, a.height, { threshold: 0.1 });
  return changed / (a.width * a.height);
}

describe('canvas export', () => {
  it('the exported HTML and the TSX rendered by React in Chromium look alike at 1280x800 (< 0.5% pixels differ)', async () => {
    await h.client.canvas.new.mutate({ name: 'Hero', id: 'hero' });
    await h.client.canvas.patch.mutate({ doc: 'hero', ops: DESIGN });
    const htmlPath = join(h.workspace, 'hero.html');
    const tsxPath = join(h.workspace, 'Hero.tsx');
    const exported = await h.client.canvas.export.mutate({ doc: 'hero', html: htmlPath, tsx: tsxPath });
    expect(exported.files.map((file) => file.format)).toEqual(['html', 'tsx']);
    const html = readFileSync(htmlPath, 'utf8');
    expect(html).not.toMatch(/<script/i);

    // The TSX rendered client-side by react-dom in the same browser (a harness page of its own).
    const bundle = await build({
      stdin: {
        contents: `import { flushSync } from 'react-dom';\nimport { createRoot } from 'react-dom/client';\nimport Page from ${JSON.stringify(tsxPath)};\nconst root = createRoot(document.getElementById('root')!);\nflushSync(() => root.render(<Page />));\n`,
        loader: 'tsx',
        resolveDir: h.workspace,
      },
      nodePaths: [NODE_MODULES],
      bundle: true,
      write: false,
      format: 'iife',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    const script = bundle.outputFiles[0]?.text ?? '';
    const reactPage = join(h.workspace, 'react.html');
    writeFileSync(
      reactPage,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;background:#fff}</style></head><body><div id="root"></div><script>${script.replaceAll('</script', '<\\/script')}</script></body></html>`,
    );

    await h.client.emulation.viewport.mutate({ size: '1280x800' });
    await h.client.dom.loadHtml.mutate({ file: htmlPath });
    const fromHtml = await shot();
    await h.client.dom.loadHtml.mutate({ file: reactPage });
    const fromReact = await shot();
    expect([fromHtml.width, fromHtml.height]).toEqual([1280, 800]);
    const ratio = diffRatio(fromHtml, fromReact);
    console.log(
      `canvas export parity: HTML vs React-rendered TSX differ in ${(ratio * 100).toFixed(3)}% of pixels at 1280x800`,
    );
    expect(ratio).toBeLessThan(0.005);
    // and the page is really drawn (not two blank screenshots): the card, button and image (about 12% of the pixels) differ from white
    const blank = new PNG({ width: 1280, height: 800 });
    blank.data.fill(255);
    expect(diffRatio(fromHtml, blank)).toBeGreaterThan(0.05);
  });

  it('export needs a target and refuses paths outside the allowed roots', async () => {
    const none = await h.client.canvas.export.mutate({ doc: 'hero' }).then(
      () => undefined,
      (error: { code: string }) => error.code,
    );
    expect(none).toBe('invalid_input');
    const outside = await h.client.canvas.export.mutate({ doc: 'hero', html: '/etc/argus-hero.html' }).then(
      () => undefined,
      (error: { code: string }) => error.code,
    );
    expect(outside).toBe('path_forbidden');
  });
});
