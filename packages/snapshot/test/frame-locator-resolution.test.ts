import type { Page } from '@argus/cdp';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SnapshotEngine, click } from '../src/index.js';
import { startBrowser, type TestBrowser } from './harness.js';

/**
 * A locator resolved in a chosen frame (as with `argus frame`) while that frame, not the page,
 * moves to another document: resolved again in the frame's new document, as in the top one. The
 * frame's navigation is placed between the engine's calls through a seam on the CDP session, so
 * nothing depends on timing.
 */

/** An engine whose locators search one frame, as the daemon's does for the frame chosen with `argus frame`. */
class FrameEngine extends SnapshotEngine {
  constructor(
    page: Page,
    private readonly frameId: () => string,
  ) {
    super(page);
  }

  protected override locatorFrame(): string {
    return this.frameId();
  }
}

let tb: TestBrowser;
let server: FixtureServer;
/** another site (localhost against 127.0.0.1): a frame moving to it changes process */
let site: FixtureServer;
let page: Page;
let engine: FrameEngine;
const frameId = () => page.frames.children(page.mainFrameId)[0]!.id;
/** The iframe's own location.search, read in its document. */
const frameSearch = async () => {
  const { result } = await page.session.send('Runtime.evaluate', {
    expression: 'document.getElementById("inner").contentWindow.location.search',
    returnByValue: true,
  });
  return result.value as string;
};
const frameResult = async () => {
  const { result } = await page.session.send('Runtime.evaluate', {
    expression: 'document.getElementById("inner").contentDocument.getElementById("result").textContent',
    returnByValue: true,
  });
  return result.value as string;
};

beforeAll(async () => {
  server = await startFixtureServer();
  site = await startFixtureServer({ hostname: 'localhost' });
  tb = await startBrowser();
});
afterAll(async () => {
  await tb?.close();
  await server?.close();
  await site?.close();
});
beforeEach(async () => {
  page = await tb.browser.newPage();
  engine = new FrameEngine(page, frameId);
});
afterEach(async () => {
  await tb.browser.closePage(page.targetId);
});

/**
 * Opens the host page with `src` in its iframe, then makes the iframe move to `next` at the moment
 * `when` says, relative to the first `locate` call in it: after it answered (it found the old
 * document's button), before it is sent (to the old document's context, which is gone), or while
 * it waits in the page for the element.
 */
async function frameMovesDuringLocate(src: string, next: string, when: 'after' | 'before' | 'waiting') {
  await page.navigate(server.urlFor(`/frame-nav.html?src=${encodeURIComponent(src)}`));
  await page.session.send('Runtime.evaluate', {
    expression:
      'new Promise((resolve) => { const f = document.getElementById("inner"); f.contentDocument.readyState === "complete" ? resolve() : f.onload = resolve; })',
    awaitPromise: true,
  });
  const session = page.session;
  const send = session.send.bind(session) as (method: string, params?: object) => Promise<unknown>;
  const moved = () =>
    new Promise<void>((resolve) => {
      const id = frameId();
      const off = session.on('Runtime.executionContextCreated', ({ context }) => {
        const aux = context.auxData as { frameId?: string; isDefault?: boolean } | undefined;
        if (aux?.frameId !== id || !aux.isDefault) return;
        off();
        resolve();
      });
      void send('Runtime.evaluate', {
        expression: `document.getElementById("inner").contentWindow.location.href = ${JSON.stringify(next)}`,
      });
    });
  let done = false;
  // a test seam on this one session: the frame's commit is placed between two of the engine's calls
  (session as { send: (method: string, params?: object) => Promise<unknown> }).send = async (method, params) => {
    const call = params as { expression?: string; awaitPromise?: boolean } | undefined;
    const locate = method === 'Runtime.evaluate' && call?.expression?.includes('a.locate(') === true;
    if (done || !locate || (when === 'waiting') !== (call?.awaitPromise === true)) return send(method, params);
    done = true;
    if (when === 'before') await moved();
    const answer = send(method, params);
    if (when === 'after') await answer.then(moved, moved);
    if (when === 'waiting') void moved();
    return answer;
  };
}

describe('a locator in a chosen frame that moves to another document', () => {
  it('the ref minted in the frame old document is not reported stale: the locator is resolved in the new one', async () => {
    await frameMovesDuringLocate('frame-nav-b.html?doc=old', 'frame-nav-b.html?doc=new', 'after');
    await click(engine, 'role=button[name="Ready"]', { timeoutMs: 5000 });
    expect(await frameSearch()).toBe('?doc=new');
    expect(await frameResult()).toBe('Ready clicked');
  });

  it('a locate sent to the frame old document (its context is gone) runs again in the new one', async () => {
    await frameMovesDuringLocate('frame-nav-b.html?doc=old', 'frame-nav-b.html?doc=new', 'before');
    await click(engine, 'text=Ready', { timeoutMs: 5000 });
    expect(await frameSearch()).toBe('?doc=new');
    expect(await frameResult()).toBe('Ready clicked');
  });

  it('a wait for the element in the frame old document goes on in the new one', async () => {
    await frameMovesDuringLocate('frame-nav-a.html', 'frame-nav-b.html', 'waiting');
    expect(await engine.waitForLocator({ kind: 'role', role: 'button', value: 'Ready', exact: true }, 5000)).toBe(true);
    await click(engine, 'role=button[name="Ready"]', { timeoutMs: 5000 });
    expect(await frameResult()).toBe('Ready clicked');
  });

  it('a wait goes on in the frame when it moves to another site (out of process)', async () => {
    await frameMovesDuringLocate('frame-nav-a.html', site.urlFor('/frame-nav-b.html'), 'waiting');
    expect(await engine.waitForLocator({ kind: 'text', value: 'Ready', exact: true }, 5000)).toBe(true);
    await click(engine, 'text="Ready"', { timeoutMs: 5000 });
    expect(page.frames.get(frameId())?.url).toContain('localhost');
  });
});
