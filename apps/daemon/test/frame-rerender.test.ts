import type { ArgusError } from '@argus/protocol/errors';
import { describe, expect, it } from 'vitest';
import { failure, useHarness, useOtherSite } from './harness.js';

/**
 * A frame chosen with `argus frame` whose <iframe> the page removes and inserts again (a framework
 * re-render: a new frame for CDP). The choice follows an iframe like it (same id, name, src and
 * place); with none, the commands that would run in the frame fail saying so, rather than running
 * in the top document.
 */

const h = useHarness();
// localhost and 127.0.0.1 are different sites
const other = useOtherSite();

const js = async <T>(code: string): Promise<T> => (await h.client.page.eval.mutate({ js: code })).value as T;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The host page with its iframe chosen; the frame shows "Render N" and a Ready button. */
async function chooseInner(src?: string): Promise<void> {
  await h.client.dom.frame.mutate({ main: true });
  const query = src ? `?src=${encodeURIComponent(src)}` : '';
  await h.client.page.goto.mutate({ url: h.server.urlFor(`/frame-rerender.html${query}`) });
  await h.client.dom.frame.mutate({ target: '#inner' });
  expect(await js('document.title')).toBe('Rendered child');
}

/** The iframe's page asks the host to render again; after the host did. */
async function hostDoes(message: 'rerender' | 'other' | 'remove'): Promise<void> {
  // the host can remove the frame before the frame's answer to this eval has left Chrome (an
  // out-of-process frame's target detaches with the answer still pending): the eval then ends as
  // the frame gone, which is what it asked for
  await js(`parent.postMessage(${JSON.stringify(message)}, '*'); true`).catch((error: ArgusError) => {
    if (error.code !== 'ref_stale' || (error.details as { reason?: string } | undefined)?.reason !== 'frame_gone')
      throw error;
  });
  // the message is handled in the host's next task: let Chrome's events of it reach the daemon
  await pause(300);
}

const textOf = async (target: string) => (await h.client.read.text.query({ target })).text;

describe('a chosen frame that the page removes and inserts again', () => {
  it('follows the new iframe: click, text, eval and wait run in it', async () => {
    await chooseInner();
    expect(await textOf('#render')).toBe('Render 1');
    await h.client.input.click.mutate({ target: '#ready' });
    expect(await textOf('#result')).toBe('Ready clicked');

    await hostDoes('rerender');
    expect(await js('document.getElementById("render").textContent')).toBe('Render 2');
    expect(await textOf('#result')).toBe('');
    await h.client.input.click.mutate({ target: 'role=button[name="Ready"]' });
    expect((await h.client.read.text.query({})).text).toContain('Ready clicked');

    // a wait under way when the host re-renders goes on in the new iframe
    await js(`parent.postMessage('rerender-later', '*'); true`);
    const waited = await h.client.page.wait.mutate({ selector: 'text="Render 3"', timeoutMs: 5000 });
    expect(waited.matched).toBe('text="Render 3"');
    await h.client.input.click.mutate({ target: '#ready' });
    expect(await textOf('#result')).toBe('Ready clicked');

    await h.client.dom.frame.mutate({ main: true });
    expect(await js('document.getElementById("renders").textContent')).toBe('3');
  });

  it('follows an iframe of another site (out of process)', async () => {
    await chooseInner(other.server.urlFor('/frame-rerender-child.html'));
    await h.client.input.click.mutate({ target: '#ready' });
    await hostDoes('rerender');
    expect(await textOf('#result')).toBe('');
    await h.client.input.click.mutate({ target: '#ready' });
    expect(await textOf('#result')).toBe('Ready clicked');
    expect(await js('location.hostname')).toBe('localhost');
  });

  it('fails with ref_stale, saying what to do, when the iframe is gone or replaced by another', async () => {
    for (const message of ['remove', 'other'] as const) {
      await chooseInner();
      await hostDoes(message);
      const started = performance.now();
      const clicked = await failure(h.client.input.click.mutate({ target: '#ready', timeoutMs: 5000 }));
      expect(clicked.code, message).toBe('ref_stale');
      expect(clicked.message).toContain('The frame chosen with `argus frame "#inner"` is gone');
      expect(clicked.message).toContain('`argus frame main`');
      expect(clicked.details).toMatchObject({ reason: 'frame_removed', chosenWith: { target: '#inner' } });
      // at once, not after the click's timeout
      expect(performance.now() - started).toBeLessThan(3000);
      // every command that would run in the frame says so; nothing runs in the top document
      expect((await failure(h.client.read.text.query({}))).code).toBe('ref_stale');
      expect((await failure(h.client.page.eval.mutate({ js: 'document.title' }))).code).toBe('ref_stale');
      expect((await failure(h.client.page.wait.mutate({ selector: 'text=Ready', timeoutMs: 2000 }))).code).toBe(
        'ref_stale',
      );
      // choosing again works, from the top document
      const back = await h.client.dom.frame.mutate({ main: true });
      expect(back.main).toBe(true);
      expect(await js('document.title')).toBe('Re-rendering host');
    }
  });
});
