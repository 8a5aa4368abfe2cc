import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type ChromeProcess, connectCri, launchChrome } from '@argus/cdp';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CHROME_FLAGS, startHarness, useHarness } from './harness.js';

/** Issue 14's session verbs against real Chromium: focus, disconnect, restart. */

describe('focus', () => {
  const h = useHarness();

  it('brings a tab to the front and makes it the active tab', async () => {
    const first = await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') });
    const second = await h.client.tabs.open.mutate({ url: h.server.urlFor('/buttons.html') });
    const focused = (tab: string) =>
      h.client.page.eval.mutate({ js: 'document.visibilityState + " " + document.hasFocus()', tab });
    // the headless browser opens each tab in a window of its own: none is ever a hidden background tab
    expect((await focused(second.id)).value).toBe('visible true');
    expect((await focused(first.id)).value).toBe('visible true');
    expect((await h.client.page.url.query({})).url).toBe(h.server.urlFor('/buttons.html'));
    const result = await h.client.page.focus.mutate({ tab: first.id });
    expect(result).toMatchObject({ id: first.id, url: h.server.urlFor('/form.html') });
    expect((await focused(first.id)).value).toBe('visible true');
    expect((await h.client.page.url.query({})).url).toBe(h.server.urlFor('/form.html'));
  });
});

describe('disconnect', () => {
  let app: FixtureServer;
  let chrome: ChromeProcess | undefined;
  beforeAll(async () => {
    app = await startFixtureServer({
      pages: {
        '/app':
          '<!doctype html><title>app</title><script>function load() { return fetch("/api/x").then((r) => r.text()); }</script>',
        '/api/x': () => ({ contentType: 'application/json', body: '{"source":"server"}' }),
      },
    });
  });
  afterAll(async () => {
    await chrome?.close();
    await app.close();
  });

  it('leaves a connected browser and its tabs running, and lets held requests go first', async () => {
    chrome = await launchChrome({ extraFlags: [TEST_CHROME_FLAGS] });
    const h = await startHarness();
    try {
      await h.client.session.connect.mutate({ cdp: chrome.wsEndpoint });
      const tab = (await h.client.tabs.open.mutate({ url: `${app.origin}/app` })).id;
      await h.client.route.add.mutate({ pattern: '**/api/x', delay: 120_000, tab });
      await h.client.page.eval.mutate({ js: 'void load()', tab });
      await expect.poll(async () => (await h.client.route.list.query({ tab })).requests.pending).toBe(1);
      expect(await h.client.session.disconnect.mutate({})).toEqual({ mode: 'connect', action: 'detached' });
      // the held request went on to the server rather than dying with the connection
      await expect.poll(() => app.traffic().paths['/api/x'] ?? 0).toBe(1);
      expect((await h.client.daemon.status.query({})).browser.running).toBe(false);
    } finally {
      await h.close();
    }
    // the daemon is gone; the user's browser and tab are not, and nothing there is paused any more
    expect(chrome.hasExited).toBe(false);
    const transport = await connectCri(chrome.wsEndpoint);
    try {
      const { targetInfos } = (await transport.send('Target.getTargets', {}, undefined)) as {
        targetInfos: Array<{ type: string; url: string }>;
      };
      expect(targetInfos.some((target) => target.type === 'page' && target.url === `${app.origin}/app`)).toBe(true);
    } finally {
      await transport.close();
    }
  });

  it('closes a browser Argus launched (never orphaned), and says so', async () => {
    const h = await startHarness();
    try {
      expect(await h.client.session.disconnect.mutate({})).toEqual({ mode: 'managed', action: 'none' });
      await h.client.tabs.open.mutate({ url: `${app.origin}/app` });
      const pid = (await h.client.daemon.status.query({})).browser.pid;
      expect(pid).not.toBeNull();
      expect(await h.client.session.disconnect.mutate({})).toEqual({ mode: 'managed', action: 'closed' });
      expect(existsSync(`/proc/${pid}`)).toBe(false);
      // the next command launches a new one
      await h.client.tabs.open.mutate({ url: `${app.origin}/app` });
      expect((await h.client.daemon.status.query({})).browser.launches).toBe(2);
    } finally {
      await h.close();
    }
  });
});

describe('restart (daemon half)', () => {
  it('saves cookies and tabs, and the next daemon reopens them with the same tab in front', async () => {
    const first = await startHarness();
    const stateDir = first.daemon.stateDir;
    const url = (path: string) => first.server.urlFor(path);
    let second: Awaited<ReturnType<typeof startHarness>> | undefined;
    try {
      // the cookie-setting page is left, so reopening the tab cannot set the cookie again
      await first.client.page.goto.mutate({ url: url('/set-cookie?name=kept&value=yes&max-age=600') });
      await first.client.page.goto.mutate({ url: url('/buttons.html') });
      const form = await first.client.tabs.open.mutate({ url: url('/form.html') });
      await first.client.tabs.select.mutate({ id: (await first.client.tabs.list.query({})).tabs[0]!.id });
      expect(form.id).toBeTruthy();
      const restarting = await first.client.daemon.restart.mutate({});
      expect(restarting).toMatchObject({ restarting: true, pid: process.pid, newPid: null });
      expect(restarting.tabs).toEqual([url('/buttons.html'), url('/form.html')]);
      expect(restarting.cookies).toBeGreaterThan(0);
      await first.daemon.stopped;
      expect(existsSync(join(stateDir, 'restart.json'))).toBe(true);
      second = await startHarness({}, { stateDir, workspace: first.workspace });
      expect(existsSync(join(stateDir, 'restart.json'))).toBe(false);
      expect(existsSync(join(stateDir, 'states', 'argus-restart.json'))).toBe(false);
      // the same tabs in the same order (Chrome's blank launch tab closed), the same one active
      const tabs = (await second.client.tabs.list.query({})).tabs;
      expect(tabs.map((tab) => tab.url)).toEqual([url('/buttons.html'), url('/form.html')]);
      expect(tabs.find((tab) => tab.active)?.url).toBe(url('/buttons.html'));
      await second.client.page.goto.mutate({ url: url('/echo-headers') });
      const cookie = await second.client.page.eval.mutate({ js: 'document.body.innerText' });
      expect(String(cookie.value)).toMatch(/kept=yes/);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
