// A tab another CDP client (or, in a browser someone uses, the person) pushes to the background of
// its window draws no frames, and Page.captureScreenshot on it was answered for a while and then
// never: the daemon sat until the command's 60 s deadline. Argus's own headless browser brings its
// tab to the front; a connected browser (someone may be looking at it) is refused at once with the
// command that brings the tab forward, and its tabs are left as they are.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, connectCri, launchChrome } from '@argus/cdp';
import { ArgusError, isRetryable } from '@argus/protocol/errors';
import { describe, expect, it } from 'vitest';
import { TEST_CHROME_FLAGS, startHarness, useHarness } from './harness.js';

/** Far below the 60 s the hang took, far above a capture on a loaded machine. */
const ANSWER_MS = 10_000;

/** `work`'s result, or a failure naming `what` when it takes longer than ANSWER_MS. */
async function answered<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} was not answered within ${ANSWER_MS} ms`)), ANSWER_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

type Send = (method: string, params: object) => Promise<unknown>;

/** Opens a blank tab in the window that holds `tab` (Target.createTarget without newWindow), in front of it. */
async function openTabInFront(send: Send, tab: string): Promise<string> {
  const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
  const windowOf = async (targetId: string) =>
    ((await send('Browser.getWindowForTarget', { targetId })) as { windowId: number }).windowId;
  expect(await windowOf(targetId)).toBe(await windowOf(tab));
  return targetId;
}

describe("Argus's own headless browser", () => {
  const h = useHarness();

  it('answers every capture of its tab when another client opened a tab in its window, bringing it to the front when Chrome waits', async () => {
    const tab = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') })).id;
    const browser = h.daemon.services.manager.current as Browser;
    const send: Send = (method, params) => browser.transport.send(method, params, undefined);
    const other = await openTabInFront(send, tab);
    const visibility = async () => (await h.client.page.eval.mutate({ tab, js: 'document.visibilityState' })).value;
    expect(await visibility()).toBe('hidden');
    /**
     * A capture of the hidden tab, answered within ANSWER_MS. One Chrome left waiting is the reason
     * to bring the tab forward (after 250 ms): one that waited a second or more (a hidden tab's
     * capture is answered in ~40 ms when it is at all) leaves the tab visible. Whether Chromium
     * leaves a hidden tab's capture waiting varies by build (Debian's 156.0.8078.114 answered the
     * daemon's at once; its raw captures hung one in two); the packages/cdp unit tests cover the
     * bringing forward itself.
     */
    const capture = async (what: string, format: 'png' | 'jpeg' | 'webp') => {
      const started = performance.now();
      const shot = await answered(what, h.client.page.screenshot.mutate({ tab, format, base64: true }));
      expect(shot.base64?.length).toBeGreaterThan(100);
      if (performance.now() - started >= 1_000) expect(await visibility()).toBe('visible');
    };
    try {
      // a row of captures: before, the first one or two were answered and the rest hung
      for (const format of ['png', 'jpeg', 'png', 'webp'] as const) await capture(`screenshot (${format})`, format);
      // pushed back again (if it was brought forward): every capture is still answered
      const third = await openTabInFront(send, tab);
      expect(await visibility()).toBe('hidden');
      await capture('screenshot after a second new tab', 'png');
      await send('Target.closeTarget', { targetId: third });
    } finally {
      await send('Target.closeTarget', { targetId: other });
    }
  });

  it('responsive shots bring it forward too', async () => {
    const tab = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') })).id;
    const browser = h.daemon.services.manager.current as Browser;
    const send: Send = (method, params) => browser.transport.send(method, params, undefined);
    const other = await openTabInFront(send, tab);
    try {
      expect((await h.client.page.eval.mutate({ tab, js: 'document.visibilityState' })).value).toBe('hidden');
      const { shots } = await answered(
        'responsive',
        h.client.visual.responsive.mutate({ tab, prefix: `${h.workspace}/shots/` }),
      );
      expect(shots.length).toBeGreaterThan(1);
    } finally {
      await send('Target.closeTarget', { targetId: other });
    }
  });

  it('a recording brings it forward too: a hidden tab sent a screencast no frames at all', async () => {
    const tab = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') })).id;
    const browser = h.daemon.services.manager.current as Browser;
    const send: Send = (method, params) => browser.transport.send(method, params, undefined);
    const other = await openTabInFront(send, tab);
    const visibility = async () => (await h.client.page.eval.mutate({ tab, js: 'document.visibilityState' })).value;
    try {
      expect(await visibility()).toBe('hidden');
      const dir = join(h.workspace, 'recordings', 'hidden');
      await h.client.screencast.start.mutate({ tab, path: dir, fps: 10 });
      expect(await visibility()).toBe('visible');
      // each change draws a frame on a shown tab (none on a hidden one: 0 kept before)
      for (let step = 0; step < 5; step++) {
        await h.client.page.eval.mutate({ tab, js: `document.body.style.background = 'hsl(${step * 67}, 80%, 50%)'` });
        await new Promise((done) => setTimeout(done, 150));
      }
      const frames = () => readdirSync(dir).filter((name) => name.endsWith('.jpg')).length;
      await expect.poll(frames, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
      const result = await answered('screencast stop', h.client.screencast.stop.mutate({ tab }));
      expect(result.frames).toBeGreaterThanOrEqual(3);
    } finally {
      await send('Target.closeTarget', { targetId: other });
    }
  });
});

describe('a connected browser', () => {
  it("refuses a hidden tab's capture at once, says how to bring it forward, and leaves the person's tabs as they are", async () => {
    const chrome = await launchChrome({ extraFlags: [TEST_CHROME_FLAGS] });
    const h = await startHarness();
    const raw = await connectCri(chrome.wsEndpoint);
    try {
      await h.client.session.connect.mutate({ cdp: chrome.wsEndpoint });
      const tab = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') })).id;
      const send: Send = (method, params) => raw.send(method, params, undefined);
      // the person (here: another CDP client) opens a tab in the same window
      await openTabInFront(send, tab);
      const visibility = async () => (await h.client.page.eval.mutate({ tab, js: 'document.visibilityState' })).value;
      expect(await visibility()).toBe('hidden');
      // Chrome answers some captures of a hidden tab (the first ones, now and then a later one) and
      // then none: each capture is answered or refused at once, never left waiting, and in a row of
      // them one is refused
      let refused: ArgusError | undefined;
      for (let attempt = 0; attempt < 6 && !refused; attempt++) {
        const started = performance.now();
        refused = await answered('screenshot of a hidden tab', h.client.page.screenshot.mutate({ tab })).then(
          () => undefined,
          (error: unknown) => {
            if (!(error instanceof ArgusError)) throw error;
            return error;
          },
        );
        if (refused) expect(performance.now() - started).toBeLessThan(5_000);
      }
      // Chromium 156 on some machines answers every capture of the hidden tab (6 of 6 in a CI run
      // here): nothing to refuse then, and each was answered. When one is refused: its own code (not
      // `unsupported`: the command is supported, the tab's state blocks it), not retryable as it
      // stands. The refusal itself is also covered on a fake session (image-capture.test.ts).
      if (refused) {
        expect(refused).toMatchObject({ code: 'tab_hidden', details: { tab } });
        expect(isRetryable(refused)).toBe(false);
        expect(refused.message).toContain(`argus tab ${tab.slice(0, 8)}`);
      }
      // a recording would get no frames from it: refused the same way, before any directory is made
      const recordings = join(h.workspace, 'recordings');
      const recording = await h.client.screencast.start.mutate({ tab, path: join(recordings, 'hidden') }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(recording).toMatchObject({ code: 'tab_hidden', details: { tab } });
      expect((recording as ArgusError).message).toContain(`argus tab ${tab.slice(0, 8)}`);
      expect(existsSync(recordings)).toBe(false);
      // nothing was switched behind the person's back
      expect(await visibility()).toBe('hidden');
      // the command the message names brings it forward, and the capture works
      await h.client.tabs.select.mutate({ id: tab });
      expect(await visibility()).toBe('visible');
      const shot = await answered('screenshot after `argus tab`', h.client.page.screenshot.mutate({ tab }));
      expect(shot.width).toBeGreaterThan(0);
    } finally {
      await raw.close();
      await h.close();
      await chrome.close();
    }
  });
});
