import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArgusClient } from '@argus/client';
import { codeOf, startHarness, useHarness } from './harness.js';
import {
  type ViewerBrowser,
  parseWatchUrl,
  screenshotOf,
  startViewerBrowser,
  viewerSocket,
  viewerStats,
} from './watch-viewer.js';

// Issue 20, live watch: a second Chromium opens the page `argus watch` prints and sees the watched
// tab change; the attacks on the watch listener are performed and seen refused.

const h = useHarness();
let viewers: ViewerBrowser;
beforeAll(async () => {
  viewers = await startViewerBrowser();
});
afterAll(async () => {
  await viewers?.close();
});

async function watchedTab(): Promise<string> {
  const tab = await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') });
  await h.client.page.eval.mutate({ js: 'document.body.style.background = "rgb(255, 0, 0)"', tab: tab.id });
  return tab.id;
}

function setBackground(tab: string, colour: string) {
  return h.client.page.eval.mutate({ js: `document.body.style.background = ${JSON.stringify(colour)}`, tab });
}

function get(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('argus watch in a second Chromium', () => {
  it('shows the tab live: the viewer changes when the watched tab changes, with its URL and commands', async () => {
    const tab = await watchedTab();
    const link = await h.client.watch.open.mutate({ tab });
    expect(link).toMatchObject({ tab, control: false });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/watch#tab=.+&token=/);
    expect(new URL(link.url).search).toBe('');
    const viewer = await viewers.open(link.url);
    try {
      await expect.poll(async () => (await viewerStats(viewer)).frames, { timeout: 10_000 }).toBeGreaterThan(0);
      // the token left the address bar (and the history entry) as soon as the script read it
      expect(await viewer.evaluate('location.href')).not.toMatch(/token/);
      const before = await screenshotOf(viewer);
      const framesBefore = (await viewerStats(viewer)).frames;
      await setBackground(tab, 'rgb(0, 0, 255)');
      await expect
        .poll(async () => (await viewerStats(viewer)).frames, { timeout: 10_000 })
        .toBeGreaterThan(framesBefore);
      // the frame may still be decoding: compare screenshots until the viewer shows the blue page
      await expect
        .poll(async () => Buffer.compare(before, await screenshotOf(viewer)) !== 0, { timeout: 10_000 })
        .toBe(true);
      const centre = await viewer.evaluate<string>(`(() => {
        const img = document.getElementById('screen');
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
        const g = canvas.getContext('2d'); g.drawImage(img, 0, 0);
        const [r, gr, b] = g.getImageData(img.naturalWidth - 5, img.naturalHeight - 5, 1, 1).data;
        return r + ',' + gr + ',' + b;
      })()`);
      const [r = 0, , b = 0] = centre.split(',').map(Number);
      expect(b).toBeGreaterThan(200);
      expect(r).toBeLessThan(60);
      expect(await viewer.evaluate('document.getElementById("url").textContent')).toBe(h.server.urlFor('/form.html'));
      await expect
        .poll(() => viewer.evaluate<string>('document.getElementById("commands").textContent'))
        .toContain('page.eval');
    } finally {
      await viewers.browser.closePage(viewer.id).catch(() => undefined);
    }
  });

  it('serves two viewers from one screencast, started on the first and stopped after the last', async () => {
    const tab = await watchedTab();
    const hub = h.daemon.services.watch.hub;
    const first = await viewers.open((await h.client.watch.open.mutate({ tab })).url);
    const second = await viewers.open((await h.client.watch.open.mutate({ tab })).url);
    try {
      for (const viewer of [first, second])
        await expect.poll(async () => (await viewerStats(viewer)).frames, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(hub.active).toBe(1);
      const counts = await Promise.all([first, second].map(async (viewer) => (await viewerStats(viewer)).frames));
      await setBackground(tab, 'rgb(0, 160, 0)');
      for (const [index, viewer] of [first, second].entries())
        await expect
          .poll(async () => (await viewerStats(viewer)).frames, { timeout: 10_000 })
          .toBeGreaterThan(counts[index] ?? 0);
    } finally {
      await viewers.browser.closePage(first.id).catch(() => undefined);
      await viewers.browser.closePage(second.id).catch(() => undefined);
    }
    await expect.poll(() => hub.active, { timeout: 10_000 }).toBe(0);
  });

  it('tells the viewer when the tab closes, and the link stops working', async () => {
    const tab = await watchedTab();
    const link = (await h.client.watch.open.mutate({ tab })).url;
    const viewer = await viewers.open(link);
    try {
      await expect.poll(async () => (await viewerStats(viewer)).frames, { timeout: 10_000 }).toBeGreaterThan(0);
      await h.client.tabs.close.mutate({ id: tab });
      await expect.poll(async () => (await viewerStats(viewer)).closed).toBe('The watched tab closed');
      const { origin, token } = parseWatchUrl(link);
      const again = viewerSocket(origin);
      again.socket.once('open', () => again.socket.send(JSON.stringify({ type: 'auth', tab, token })));
      expect((await again.closed).code).toBe(4401);
    } finally {
      await viewers.browser.closePage(viewer.id).catch(() => undefined);
    }
  });

  it('a --control viewer clicks and types in the tab; a view-only viewer cannot', async () => {
    const tab = await watchedTab();
    await h.client.page.eval.mutate({
      tab,
      js: 'window.__clicks = 0; document.addEventListener("click", () => window.__clicks++); document.querySelector("input").focus()',
    });
    const clicks = async () => (await h.client.page.eval.mutate({ tab, js: 'window.__clicks' })).value;

    const viewOnly = parseWatchUrl((await h.client.watch.open.mutate({ tab })).url);
    const idle = viewerSocket(viewOnly.origin);
    await new Promise((resolve) => idle.socket.once('open', resolve));
    idle.socket.send(JSON.stringify({ type: 'auth', tab: viewOnly.tab, token: viewOnly.token }));
    await expect.poll(() => idle.frames.length, { timeout: 10_000 }).toBeGreaterThan(0);
    idle.socket.send(JSON.stringify({ type: 'click', x: 0.5, y: 0.5 }));
    idle.socket.send(JSON.stringify({ type: 'key', key: 'x' }));
    await expect.poll(() => idle.texts.filter((m) => (m as { type: string }).type === 'error').length).toBe(2);
    expect(JSON.stringify(idle.texts)).toContain('view only');
    expect(await clicks()).toBe(0);
    idle.socket.close();

    const control = parseWatchUrl((await h.client.watch.open.mutate({ tab, control: true })).url);
    const driver = viewerSocket(control.origin);
    await new Promise((resolve) => driver.socket.once('open', resolve));
    driver.socket.send(JSON.stringify({ type: 'auth', tab: control.tab, token: control.token }));
    await expect.poll(() => driver.frames.length, { timeout: 10_000 }).toBeGreaterThan(0);
    driver.socket.send(JSON.stringify({ type: 'key', key: 'q' }));
    driver.socket.send(JSON.stringify({ type: 'click', x: 0.9, y: 0.9 }));
    await expect.poll(clicks).toBe(1);
    expect((await h.client.page.eval.mutate({ tab, js: 'document.querySelector("input").value' })).value).toBe('q');
    driver.socket.close();
  });
});

describe('attacks on the watch listener', () => {
  let tab: string;
  let other: string;
  let link: ReturnType<typeof parseWatchUrl>;
  beforeAll(async () => {
    tab = await watchedTab();
    other = await watchedTab();
    link = parseWatchUrl((await h.client.watch.open.mutate({ tab })).url);
  });

  async function attempt(message: object | undefined, options: Parameters<typeof viewerSocket>[1] = {}) {
    const viewer = viewerSocket(link.origin, options);
    viewer.socket.once('open', () => {
      if (message) viewer.socket.send(JSON.stringify(message));
    });
    const closed = await viewer.closed;
    return { ...closed, frames: viewer.frames.length };
  }

  it('refuses a socket with no token, a wrong token, or a token for another tab, before any frame', async () => {
    expect(await attempt(undefined)).toEqual({ code: 4401, reason: 'No watch token sent', frames: 0 });
    expect(await attempt({ type: 'click', x: 0.5, y: 0.5 })).toMatchObject({ code: 4401, frames: 0 });
    expect(await attempt({ type: 'auth', tab, token: `${link.token.slice(0, -2)}xx` })).toMatchObject({
      code: 4401,
      frames: 0,
    });
    expect(await attempt({ type: 'auth', tab: other, token: link.token })).toMatchObject({ code: 4403, frames: 0 });
  });

  it('refuses a token in the query string, for the socket and the page', async () => {
    expect(await attempt(undefined, { path: `/watch/ws?token=${link.token}&tab=${tab}` })).toMatchObject({
      code: 400,
      reason: 'http',
    });
    expect(await get(`${link.origin}/watch?token=${link.token}`)).toBe(400);
    expect(await get(`${link.origin}/watch`)).toBe(200);
  });

  it('refuses a socket from another origin and a rebound Host', async () => {
    expect(await attempt({ type: 'auth', tab, token: link.token }, { origin: 'http://evil.example' })).toMatchObject({
      code: 403,
    });
    expect(
      await attempt({ type: 'auth', tab, token: link.token }, { host: `evil.example:${link.port}` }),
    ).toMatchObject({ code: 421 });
    expect(await get(`${link.origin}/watch`, { host: `evil.example:${link.port}` })).toBe(421);
  });

  it('a watch token is no bearer token on the daemon, and a read token cannot mint a --control link', async () => {
    const stolen = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: link.token });
    try {
      expect(await codeOf(stolen.client.tabs.list.query({}))).toBe('unauthorized');
    } finally {
      stolen.close();
    }
    const read = await h.client.token.create.mutate({ scope: 'read' });
    const reader = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: read.token });
    try {
      expect(await codeOf(reader.client.watch.open.mutate({ tab, control: true }))).toBe('forbidden_scope');
      expect((await reader.client.watch.open.mutate({ tab })).control).toBe(false);
    } finally {
      reader.close();
    }
  });

  it('serves the page under a CSP that allows only its own script and a socket back to itself', async () => {
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      request(`${link.origin}/watch`, (res) => {
        res.resume();
        resolve(res.headers);
      })
        .on('error', reject)
        .end();
    });
    expect(headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src blob:; connect-src ws://127.0.0.1:${link.port} ws://localhost:${link.port}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
  });
});

describe('watch --control and tab leases', () => {
  /** A --control viewer socket on `tab`, authenticated and receiving frames. */
  async function controller(url: string) {
    const link = parseWatchUrl(url);
    const viewer = viewerSocket(link.origin);
    await new Promise((resolve) => viewer.socket.once('open', resolve));
    viewer.socket.send(JSON.stringify({ type: 'auth', tab: link.tab, token: link.token }));
    await expect.poll(() => viewer.frames.length, { timeout: 10_000 }).toBeGreaterThan(0);
    return viewer;
  }

  it("refuses a viewer's input on a tab another client leases; the lease holder's own link may type", async () => {
    const tab = await watchedTab();
    await h.client.page.eval.mutate({ tab, js: 'document.querySelector("input").focus()' });
    // the operator asks for a --control link, then another client leases the tab
    const operatorLink = (await h.client.watch.open.mutate({ tab, control: true })).url;
    const holder = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: h.daemon.token });
    const { lease } = await holder.client.tabs.lease.mutate({ tab, ttl: '5m' });
    const leased = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: h.daemon.token, lease });
    // eval writes: only the holder may run it on the leased tab
    const value = async () =>
      (await leased.client.page.eval.mutate({ tab, js: 'document.querySelector("input").value' })).value;
    try {
      const outsider = await controller(operatorLink);
      outsider.socket.send(JSON.stringify({ type: 'key', key: 'a' }));
      outsider.socket.send(JSON.stringify({ type: 'click', x: 0.5, y: 0.5 }));
      await expect
        .poll(() => outsider.texts.filter((m) => (m as { code?: string }).code === 'tab_leased').length)
        .toBe(2);
      expect(JSON.stringify(outsider.texts)).toMatch(/leased by .*input from this watch link is refused/);
      expect(await value()).toBe('');
      outsider.socket.close();

      // the holder's link carries its lease: its viewer types
      const own = await controller((await leased.client.watch.open.mutate({ tab, control: true })).url);
      own.socket.send(JSON.stringify({ type: 'key', key: 'b' }));
      await expect.poll(value).toBe('b');
      expect(own.texts.filter((m) => (m as { type: string }).type === 'error')).toEqual([]);
      own.socket.close();

      // released: the operator's link works again
      await leased.client.tabs.release.mutate({});
      const again = await controller(operatorLink);
      again.socket.send(JSON.stringify({ type: 'key', key: 'c' }));
      await expect
        .poll(async () => (await h.client.page.eval.mutate({ tab, js: 'document.querySelector("input").value' })).value)
        .toBe('bc');
      again.socket.close();
    } finally {
      holder.close();
      leased.close();
    }
  });
});

describe('watching keeps the daemon from stopping idle', () => {
  it('does not stop while a viewer is connected, and stops once the last viewer left', async () => {
    // long enough for the first command to launch Chromium under load (each request restarts the count)
    const idle = await startHarness({ ARGUS_IDLE_TIMEOUT_MS: '6000' });
    let stopped = false;
    void idle.daemon.stopped.then(() => (stopped = true));
    try {
      const tab = (await idle.client.tabs.open.mutate({ url: idle.server.urlFor('/form.html') })).id;
      const link = parseWatchUrl((await idle.client.watch.open.mutate({ tab })).url);
      const viewer = viewerSocket(link.origin);
      await new Promise((resolve) => viewer.socket.once('open', resolve));
      viewer.socket.send(JSON.stringify({ type: 'auth', tab: link.tab, token: link.token }));
      await expect.poll(() => viewer.texts.length, { timeout: 10_000 }).toBeGreaterThan(0);
      // two idle periods with no command, only a viewer: the daemon stays
      await new Promise((done) => setTimeout(done, 13_000));
      expect(stopped).toBe(false);
      expect(idle.daemon.services.watch.viewers).toBe(1);
      viewer.socket.close();
      await viewer.closed;
      // the viewer left: the idle stop comes (the harness's own stop is then a no-op)
      await idle.daemon.stopped;
      expect(stopped).toBe(true);
    } finally {
      await idle.close();
    }
  }, 60_000);
});
