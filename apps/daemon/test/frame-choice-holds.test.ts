import { describe, expect, it } from 'vitest';
import { failure, useHarness } from './harness.js';

/**
 * The frame chosen with `argus frame` holds for every command that would run in it: `wait` for a
 * CSS selector or a text, and `snapshot --scope`, look in it (across a re-render or a navigation of
 * the frame), and fail with `ref_stale` when it is gone. A navigation of the top document ends the
 * choice, never silently: the agent's own goto, back, forward and reload say so in their reply; after
 * any other (a link, a script), the next command that would have run in the frame fails saying so.
 */

const h = useHarness();

const js = async <T>(code: string): Promise<T> => (await h.client.page.eval.mutate({ js: code })).value as T;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const wait = (input: { selector?: string; text?: string; timeoutMs: number }) => h.client.page.wait.mutate(input);
const snapshotOf = async (scope: string) => (await h.client.snapshot.take.mutate({ scope })).text;

/** The host page with its iframe chosen: the frame shows "Render N", a Ready button and a link that navigates the top document. */
async function chooseInner(): Promise<void> {
  await h.client.dom.frame.mutate({ main: true });
  await h.client.page.goto.mutate({ url: h.server.urlFor('/frame-rerender.html') });
  await h.client.dom.frame.mutate({ target: '#inner' });
  expect(await js('document.title')).toBe('Rendered child');
}

/** The iframe's page asks the host to remove it; after the host did. */
async function removeInner(): Promise<void> {
  await js(`parent.postMessage('remove', '*'); true`);
  await pause(300);
}

/** Fails with the lost choice's ref_stale, for `reason`. */
async function expectStale(call: Promise<unknown>, reason: string, label: string): Promise<string> {
  const error = await failure(call);
  expect(error.code, label).toBe('ref_stale');
  expect(error.message, label).toContain('The frame chosen with `argus frame "#inner"` is gone');
  expect(error.message, label).toContain('`argus frame main`');
  expect(error.details, label).toMatchObject({ reason, chosenWith: { target: '#inner' } });
  return error.message;
}

describe('argus wait in the chosen frame', () => {
  it('waits for a CSS selector or a text in the frame, across a re-render and a navigation of it', async () => {
    await chooseInner();
    // '#ready' and "Render 1" are only in the iframe's document; <h1> only in the top one
    expect((await wait({ selector: '#ready', timeoutMs: 2000 })).matched).toBe('#ready');
    expect((await wait({ text: 'Render 1', timeoutMs: 2000 })).matched).toBe('text "Render 1"');
    expect((await failure(wait({ selector: 'h1', timeoutMs: 300 }))).code).toBe('timeout');
    expect((await failure(wait({ text: 'Re-rendering host', timeoutMs: 300 }))).code).toBe('timeout');

    // a wait under way when the host re-renders the iframe goes on in the new one
    await js(`parent.postMessage('rerender-later', '*'); true`);
    expect((await wait({ selector: '[data-render="2"]', timeoutMs: 5000 })).matched).toBe('[data-render="2"]');
    await js(`parent.postMessage('rerender-later', '*'); true`);
    const later = await wait({ text: 'Render 3', timeoutMs: 5000 });
    expect(later.matched).toBe('text "Render 3"');
    expect(later.waitedMs).toBeGreaterThan(200);

    // and when the frame itself navigates, in its next document
    await js(`setTimeout(() => { location.href = 'frame-nav-b.html'; }, 500); true`);
    expect((await wait({ text: 'Step two', timeoutMs: 5000 })).matched).toBe('text "Step two"');
    expect(await js('document.title')).toBe('Step two');
  });

  it('fails with ref_stale when the chosen frame is gone', async () => {
    await chooseInner();
    await removeInner();
    await expectStale(wait({ selector: '#ready', timeoutMs: 2000 }), 'frame_removed', 'selector');
    await expectStale(wait({ text: 'Ready', timeoutMs: 2000 }), 'frame_removed', 'text');
    await h.client.dom.frame.mutate({ main: true });
    expect((await wait({ selector: 'h1', timeoutMs: 2000 })).matched).toBe('h1');
  });
});

describe('snapshot --scope in the chosen frame', () => {
  it('looks for a CSS scope in the frame, and fails with ref_stale when the frame is gone', async () => {
    await chooseInner();
    // the top document has a <p> too ("Renders: 1"): the frame's is the one meant
    expect(await snapshotOf('p')).toContain('Render 1');
    expect(await snapshotOf('#ready')).toContain('button "Ready"');
    const ref = /button "Ready" (f\d+e\d+)/.exec(await snapshotOf('#ready'))?.[1];
    expect(ref).toBeDefined();

    await removeInner();
    for (const scope of ['#ready', 'p', 'h1', 'role=button[name="Ready"]'])
      await expectStale(h.client.snapshot.take.mutate({ scope }), 'frame_removed', scope);
    // a ref of the removed frame is stale, as for any command given it
    const byRef = await failure(h.client.snapshot.take.mutate({ scope: ref! }));
    expect(byRef.code).toBe((await failure(h.client.input.click.mutate({ target: ref! }))).code);
    expect(byRef.code).toBe('ref_stale');
    // the whole page needs no frame
    expect((await h.client.snapshot.take.mutate({})).text).toContain('Re-rendering host');
  });
});

describe('a navigation of the top document while a frame is chosen', () => {
  it("the agent's own goto, reload and back end the choice and their reply says so", async () => {
    await chooseInner();
    const reloaded = await h.client.page.reload.mutate({});
    expect(reloaded.frameCleared).toBe('argus frame "#inner"');
    expect(await js('document.title')).toBe('Re-rendering host');
    // nothing to say when no frame was chosen
    expect((await h.client.page.reload.mutate({})).frameCleared).toBeUndefined();

    await h.client.dom.frame.mutate({ target: '#inner' });
    const gone = await h.client.page.goto.mutate({ url: h.server.urlFor('/frame-nav.html') });
    expect(gone.frameCleared).toBe('argus frame "#inner"');
    expect(await js('document.title')).toBe('Frame host');

    await h.client.dom.frame.mutate({ target: '#inner' });
    expect(await js('document.title')).toBe('Step one');
    const back = await h.client.page.back.mutate({});
    expect(back.frameCleared).toBe('argus frame "#inner"');
    expect(await js('document.title')).toBe('Re-rendering host');
    expect((await h.client.read.text.query({})).text).toContain('Re-rendering host');
  });

  it('after a navigation the page made, the next command that would run in the frame fails saying so', async () => {
    await chooseInner();
    // a link in the frame navigates the top document, to a page with an iframe like the chosen one
    const clicked = await h.client.input.click.mutate({ target: '#leave' });
    expect(clicked.navigated).toBe(true);
    const message = await expectStale(h.client.read.text.query({}), 'top_navigated', 'text');
    expect(message).toContain('the top document navigated');
    // every command that would run in the frame says so; nothing runs in the top document
    await expectStale(h.client.input.click.mutate({ target: '#ready', timeoutMs: 5000 }), 'top_navigated', 'click');
    await expectStale(h.client.page.eval.mutate({ js: 'document.title' }), 'top_navigated', 'eval');
    await expectStale(wait({ selector: 'h1', timeoutMs: 2000 }), 'top_navigated', 'wait');
    await expectStale(h.client.snapshot.take.mutate({ scope: 'h1' }), 'top_navigated', 'snapshot --scope');
    // choosing again (here: the top document) works
    expect((await h.client.dom.frame.mutate({ main: true })).main).toBe(true);
    expect(await js('document.title')).toBe('Re-rendering host');
    expect((await h.client.read.text.query({})).text).toContain('Renders: 1');
  });
});
