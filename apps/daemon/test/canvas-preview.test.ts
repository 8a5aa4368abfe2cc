import { describe, expect, it } from 'vitest';
import { refOf, useHarness } from './harness.js';

const h = useHarness();

const DESIGN = [
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: null,
    node: {
      id: 'box',
      kind: 'frame',
      rect: { x: 0, y: 0, width: 800, height: 400 },
      style: { backgroundColor: '#eef' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'box',
    node: {
      id: 'label',
      kind: 'text',
      rect: { x: 40, y: 40, width: 600, height: 60 },
      props: { text: 'Hello', tag: 'h1' },
      style: { margin: 0, fontSize: 32, color: '#222' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'box',
    node: {
      id: 'cta',
      kind: 'text',
      rect: { x: 40, y: 200, width: 200, height: 48 },
      props: { text: 'Sign up', tag: 'button' },
    },
  },
];

/** What the preview tab shows, read in one evaluation. */
async function shown(): Promise<{
  marker: unknown;
  text: string;
  color: string;
  revision: string;
  navigations: number;
  url: string;
}> {
  const { value } = await h.client.page.eval.mutate({
    js: `(() => {
      const label = document.querySelector('[data-canvas-node="label"]');
      return {
        marker: window.previewMarker ?? null,
        text: label ? label.textContent : '',
        color: label ? getComputedStyle(label).color : '',
        revision: document.documentElement.dataset.canvasRevision ?? '',
        navigations: performance.getEntriesByType('navigation').length,
        url: location.href,
      };
    })()`,
  });
  return value as Awaited<ReturnType<typeof shown>>;
}

describe('canvas live preview', () => {
  it('shows the document and follows every patch, undo and redo in place, without a navigation', async () => {
    await h.client.canvas.new.mutate({ name: 'Preview', id: 'preview' });
    const designed = await h.client.canvas.patch.mutate({ doc: 'preview', ops: DESIGN });
    const opened = await h.client.canvas.open.mutate({ doc: 'preview' });
    expect(opened).toMatchObject({ doc: 'preview', revision: designed.revision });
    const tabs = await h.client.tabs.list.query();
    expect(tabs.tabs.find((tab) => tab.active)?.id).toBe(opened.tab);

    const first = await shown();
    expect(first.text).toBe('Hello');
    // a mark left in the page's JS world: it survives only if the document is never replaced
    await h.client.page.eval.mutate({ js: 'window.previewMarker = 42' });

    const patched = await h.client.canvas.patch.mutate({
      doc: 'preview',
      ops: [{ op: 'node.update', nodeId: 'label', changes: { 'props.text': 'Hello again', 'style.color': '#c00000' } }],
    });
    // the patch call returns once the preview shows its revision (pushed, not polled)
    const after = await shown();
    expect(after).toMatchObject({
      marker: 42,
      text: 'Hello again',
      color: 'rgb(192, 0, 0)',
      revision: String(patched.revision),
    });
    expect(after.url).toBe(first.url);
    expect(after.navigations).toBe(first.navigations);

    const undone = await h.client.canvas.undo.mutate({ doc: 'preview' });
    expect(await shown()).toMatchObject({ marker: 42, text: 'Hello', revision: String(undone.revision) });
    const redone = await h.client.canvas.redo.mutate({ doc: 'preview' });
    expect(await shown()).toMatchObject({ marker: 42, text: 'Hello again', revision: String(redone.revision) });

    // every node of the document is an element carrying its id
    const { value: ids } = await h.client.page.eval.mutate({
      js: '[...document.querySelectorAll("[data-canvas-node]")].map((el) => el.dataset.canvasNode).sort()',
    });
    expect(ids).toEqual(['box', 'cta', 'label']);
  });

  it('maps a snapshot ref (or a locator) of the preview back to its canvas node', async () => {
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    const ref = refOf(snap.text, /button "Sign up"/);
    expect(await h.client.canvas.nodeOf.query({ target: ref })).toMatchObject({ node: 'cta', doc: 'preview' });
    expect(await h.client.canvas.nodeOf.query({ target: 'text=Hello again' })).toMatchObject({ node: 'label' });
    expect(await h.client.canvas.nodeOf.query({ target: '[data-canvas-node="box"]' })).toMatchObject({ node: 'box' });
    // a page that is no preview: no node, no document
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    const form = await h.client.snapshot.take.mutate({ interactive: true });
    expect(await h.client.canvas.nodeOf.query({ target: refOf(form.text, /textbox "Name"/) })).toMatchObject({
      node: null,
      doc: null,
    });
  });

  it('canvas rm ends its previews: a new document with the same id never shows up in them', async () => {
    await h.client.canvas.new.mutate({ name: 'Prev', id: 'prev' });
    await h.client.canvas.patch.mutate({ doc: 'prev', ops: DESIGN });
    const opened = await h.client.canvas.open.mutate({ doc: 'prev' });
    expect(await h.client.canvas.nodeOf.query({ target: '[data-canvas-node="box"]' })).toMatchObject({ doc: 'prev' });
    await h.client.canvas.rm.mutate({ doc: 'prev' });
    expect(await h.client.canvas.nodeOf.query({ target: '[data-canvas-node="box"]' })).toMatchObject({
      node: 'box',
      doc: null,
    });
    await h.client.canvas.new.mutate({ name: 'X', id: 'prev' });
    await h.client.canvas.patch.mutate({
      doc: 'prev',
      ops: [{ op: 'node.insert', pageId: 'page-1', parentId: null, node: { id: 'other', kind: 'frame' } }],
    });
    const tabs = await h.client.tabs.list.query();
    expect(tabs.tabs.find((tab) => tab.active)?.id).toBe(opened.tab);
    // the tab keeps the deleted document's last state
    const { value } = await h.client.page.eval.mutate({
      js: '[...document.querySelectorAll("[data-canvas-node]")].map((el) => el.dataset.canvasNode).sort()',
    });
    expect(value).toEqual(['box', 'cta', 'label']);
  });
});
