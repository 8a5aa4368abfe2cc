import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@argus/cdp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNER_TAG } from '../src/handoff/banner.js';
import { codeOf, failure, useHarness } from './harness.js';
import { pressDone } from './handoff-helpers.js';

// Issue 20, human handoff in managed mode: the browser is relaunched headed (on a virtual display)
// on the same page with its cookies, a person presses the banner's Done with real input events,
// and the waiting command returns what changed (cookie names, never values); the browser is
// headless again with the new cookies. Without a display the handoff fails with a typed error.

const h = useHarness();
const xvfb = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v Xvfb'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
})();

const evalIn = async (js: string, tab?: string) =>
  (await h.client.page.eval.mutate({ js, ...(tab ? { tab } : {}) })).value;

/** The running Chromium's command line: `--headless` or not. */
function chromeArgs(): string[] {
  const pid = h.daemon.services.manager.pid;
  if (pid === null) throw new Error('no managed browser');
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

/** The page object of a tab in the daemon's current browser. */
function pageOf(tab: string): Page {
  const page = h.daemon.services.manager.current?.page(tab);
  if (!page) throw new Error(`no page ${tab}`);
  return page;
}

/** An IndexedDB record written and read back in the page (the temporary profile must carry it across relaunches). */
const idbOpen = `new Promise((resolve, reject) => { const r = indexedDB.open('argus-handoff', 1); r.onupgradeneeded = () => r.result.createObjectStore('kv'); r.onerror = () => reject(r.error); r.onsuccess = () => resolve(r.result); })`;
const idbPut = `${idbOpen}.then((db) => new Promise((resolve, reject) => { const tx = db.transaction('kv', 'readwrite'); tx.objectStore('kv').put('trusted-device', 'device'); tx.oncomplete = () => { db.close(); resolve(true); }; tx.onerror = () => reject(tx.error); }))`;
const idbGet = `${idbOpen}.then((db) => new Promise((resolve, reject) => { const get = db.transaction('kv').objectStore('kv').get('device'); get.onsuccess = () => { db.close(); resolve(get.result ?? null); }; get.onerror = () => reject(get.error); }))`;

describe('argus handoff without a display', () => {
  it('fails with no_display and says how to use the extension instead; the browser keeps working', async () => {
    const saved = { DISPLAY: process.env.DISPLAY, WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY };
    delete process.env.DISPLAY;
    delete process.env.WAYLAND_DISPLAY;
    try {
      await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
      const error = await h.client.handoff.start.mutate({ reason: 'Log in' }).catch((e: unknown) => e as Error);
      expect((error as { code?: string }).code).toBe('no_display');
      expect((error as Error).message).toMatch(/argus connect --extension/);
      expect((await h.client.daemon.status.query({})).handoffs).toEqual([]);
      expect(chromeArgs().some((arg) => arg.startsWith('--headless'))).toBe(true);
      expect(await evalIn('document.title')).toBeTruthy();
    } finally {
      Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
    }
  });

  it('resume with no handoff running is no_handoff', async () => {
    expect(await codeOf(h.client.handoff.resume.mutate({}))).toBe('no_handoff');
  });
});

describe.skipIf(!xvfb)(
  `argus handoff, headed on a virtual display (${xvfb ?? 'SKIPPED: Xvfb is not installed'})`,
  () => {
    let server: ChildProcess | undefined;
    beforeAll(async () => {
      // a display of our own, removed after: a number no other run is likely to hold
      const display = 90 + (process.pid % 400);
      server = spawn(xvfb ?? 'Xvfb', [`:${display}`, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
        stdio: 'ignore',
      });
      // the server's socket appears when it accepts clients (an inotify-free wait: the file, checked on each tick of a bounded loop)
      for (let i = 0; i < 150 && !existsSync(`/tmp/.X11-unix/X${display}`); i++)
        await new Promise((done) => setTimeout(done, 100));
      if (!existsSync(`/tmp/.X11-unix/X${display}`)) throw new Error(`Xvfb :${display} did not start`);
      process.env.DISPLAY = `:${display}`;
    });
    afterAll(async () => {
      delete process.env.DISPLAY;
      server?.kill('SIGTERM');
      await new Promise((done) => (server?.exitCode !== null ? done(undefined) : server.once('exit', done)));
    });

    it('relaunches headed with the cookies, Done returns what changed, then headless again with the new cookies', async () => {
      await h.client.page.goto.mutate({ url: h.server.urlFor('/set-cookie?name=before&value=1') });
      const start = await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
      // a sign-in that keeps its step in sessionStorage: a new tab in a new browser would have none
      await evalIn(`sessionStorage.setItem('signin-step', 'otp')`);
      // and a device record in IndexedDB, which only the profile on disk carries
      expect(await evalIn(idbPut)).toBe(true);
      const profileDir = chromeArgs().find((arg) => arg.startsWith('--user-data-dir='));
      expect(chromeArgs().some((arg) => arg.startsWith('--headless'))).toBe(true);
      const launches = h.daemon.services.manager.launches;

      const handed = await h.client.handoff.start.mutate({ reason: 'Log in, then press Done', timeout: '10m' });
      expect(handed).toMatchObject({ state: 'waiting', mode: 'managed', url: start.url, changes: null });
      expect(h.daemon.services.manager.launches).toBe(launches + 1);
      // headed: no --headless flag, a normal user agent, on the virtual display; the cookie came along
      expect(chromeArgs().some((arg) => arg.startsWith('--headless'))).toBe(false);
      expect(await evalIn('navigator.userAgent', handed.tab)).not.toContain('HeadlessChrome');
      expect(await evalIn('location.href', handed.tab)).toBe(start.url);
      expect(await evalIn('document.cookie', handed.tab)).toContain('before=1');
      expect(await evalIn(`sessionStorage.getItem('signin-step')`, handed.tab)).toBe('otp');
      expect(await evalIn(idbGet, handed.tab)).toBe('trusted-device');
      expect(chromeArgs().find((arg) => arg.startsWith('--user-data-dir='))).toBe(profileDir);
      expect((await h.client.daemon.status.query({})).handoffs).toEqual([
        expect.objectContaining({ tab: handed.tab, reason: 'Log in, then press Done', mode: 'managed' }),
      ]);
      // the banner is in the page; the page's own scripts cannot reach the Done binding
      await expect.poll(() => evalIn(`!!document.querySelector('${BANNER_TAG}')`, handed.tab)).toBe(true);
      expect(await evalIn('typeof window.__argusHandoffDone', handed.tab)).toBe('undefined');

      // evidence for a person reading the run: what the headed window shows (ARGUS_HANDOFF_SHOT=file.png)
      if (process.env.ARGUS_HANDOFF_SHOT) {
        const shot = (await pageOf(handed.tab).session.send('Page.captureScreenshot', { format: 'png' })) as {
          data: string;
        };
        writeFileSync(process.env.ARGUS_HANDOFF_SHOT, Buffer.from(shot.data, 'base64'));
      }
      // the person "logs in": the site sets a session cookie; the banner comes back on the new page
      await h.client.page.goto.mutate({
        tab: handed.tab,
        url: h.server.urlFor('/set-cookie?name=session&value=s3cretvalue'),
      });
      await expect.poll(() => evalIn(`!!document.querySelector('${BANNER_TAG}')`, handed.tab)).toBe(true);
      // a synthetic click from the page does nothing (only a person's trusted click counts)
      await evalIn(
        `document.querySelector('${BANNER_TAG}').dispatchEvent(new MouseEvent('click', { bubbles: true }))`,
        handed.tab,
      );

      // the agent waits (joining the running handoff); the person presses Done with real input
      const waiting = h.client.handoff.start.mutate({ wait: true });
      await new Promise((done) => setTimeout(done, 500));
      expect((await h.client.daemon.status.query({})).handoffs).toHaveLength(1);
      await pressDone(pageOf(handed.tab));
      const ended = await waiting;
      expect(ended.state).toBe('done');
      expect(ended.changes).toMatchObject({
        urlChanged: true,
        cookiesAdded: ['session@127.0.0.1'],
        cookiesChanged: [],
        cookiesRemoved: [],
      });
      expect(ended.changes?.url).toContain('/set-cookie');
      // the value is in the page's own URL (the fixture takes it from the query), nowhere else
      const { url: _url, ...rest } = ended.changes ?? { url: '' };
      expect(JSON.stringify({ ...ended, changes: rest })).not.toContain('s3cretvalue');

      // headless again, on the same page, with the person's cookie
      expect(chromeArgs().some((arg) => arg.startsWith('--headless'))).toBe(true);
      expect(await evalIn('navigator.userAgent')).toContain('HeadlessChrome');
      expect(await evalIn('location.pathname')).toBe('/set-cookie');
      expect(await evalIn('document.cookie')).toContain('session=s3cretvalue');
      expect(await evalIn(`sessionStorage.getItem('signin-step')`)).toBe('otp');
      expect(await evalIn(idbGet)).toBe('trusted-device');
      expect(chromeArgs().find((arg) => arg.startsWith('--user-data-dir='))).toBe(profileDir);
      expect(await evalIn(`!!document.querySelector('${BANNER_TAG}')`)).toBe(false);
      expect((await h.client.daemon.status.query({})).handoffs).toEqual([]);

      // the temporary profile is still owned: a kept one that no launch takes is removed at the next close
      const dir = profileDir!.slice('--user-data-dir='.length);
      await h.daemon.services.manager.detach({ keepProfile: true });
      expect(existsSync(dir)).toBe(true);
      await h.daemon.services.manager.detach();
      expect(existsSync(dir)).toBe(false);
    }, 120_000);

    it('a page that reads sessionStorage at load shows what the person left there, headed and back headless', async () => {
      await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
      await evalIn(`sessionStorage.setItem('user', 'ada')`);
      await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html?signed-in') });
      const handed = await h.client.handoff.start.mutate({ reason: 'Check the account' });
      expect(await evalIn(`document.getElementById('welcome').textContent`, handed.tab)).toBe('Signed in as ada');
      // the person signs in as someone else in the headed window
      await evalIn(`sessionStorage.setItem('user', 'bob')`, handed.tab);
      await h.client.page.goto.mutate({ tab: handed.tab, url: h.server.urlFor('/login.html?signed-in') });
      expect((await h.client.handoff.resume.mutate({})).state).toBe('resumed');
      expect(await evalIn(`document.getElementById('welcome').textContent`)).toBe('Signed in as bob');
    }, 120_000);

    it('one at a time: a handoff for another tab (or an unknown one) is refused; one for its tab, or none, joins it', async () => {
      await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
      const handed = await h.client.handoff.start.mutate({ reason: 'First' });
      const other = await h.client.tabs.open.mutate({ url: h.server.urlFor('/buttons.html') });
      const refused = await failure(h.client.handoff.start.mutate({ reason: 'Second', tab: other.id }));
      expect(refused.code).toBe('handoff_running');
      expect(refused.message).toContain('("First")');
      expect(await codeOf(h.client.handoff.start.mutate({ reason: 'Third', tab: 'zzzz' }))).toBe('tab_not_found');
      expect(await h.client.handoff.start.mutate({ reason: 'Again' })).toMatchObject({
        tab: handed.tab,
        reason: 'First',
      });
      expect(await h.client.handoff.start.mutate({ reason: 'Again', tab: handed.tab })).toMatchObject({
        tab: handed.tab,
        state: 'waiting',
      });
      expect((await h.client.handoff.resume.mutate({})).state).toBe('resumed');
    }, 120_000);

    it('survives the browser dying under it: reopened headed with the banner, then `resume` ends it', async () => {
      await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
      const handed = await h.client.handoff.start.mutate({ reason: 'Solve it' });
      // an agent waits on the handoff while the browser dies: it still gets the answer at the end
      const waiting = h.client.handoff.start.mutate({ wait: true });
      await new Promise((done) => setTimeout(done, 300));
      const pid = h.daemon.services.manager.pid;
      expect(pid).not.toBeNull();
      // the whole process group at once, as a crash takes the browser's helpers with it
      process.kill(-(pid ?? 0), 'SIGKILL');
      // the next command hears of the crash, the one after relaunches (headed: the handoff still runs)
      await expect.poll(() => h.daemon.services.manager.hasCrashed, { timeout: 30_000 }).toBe(true);
      expect(await codeOf(h.client.tabs.list.query({}))).toBe('browser_crashed');
      await h.client.tabs.list.query({});
      expect(chromeArgs().some((arg) => arg.startsWith('--headless'))).toBe(false);
      const listed = async () => (await h.client.daemon.status.query({})).handoffs ?? [];
      await expect.poll(async () => (await listed())[0]?.tab, { timeout: 30_000 }).not.toBe(handed.tab);
      const tab = (await listed())[0]?.tab ?? '';
      expect(await evalIn('location.pathname', tab)).toBe('/form.html');
      await expect.poll(() => evalIn(`!!document.querySelector('${BANNER_TAG}')`, tab), { timeout: 15_000 }).toBe(true);
      const ended = await h.client.handoff.resume.mutate({});
      expect(ended.state).toBe('resumed');
      const waited = await waiting;
      expect(waited).toMatchObject({ state: 'resumed', reason: 'Solve it' });
      expect(waited.changes?.url).toContain('/form.html');
      expect(chromeArgs().some((arg) => arg.startsWith('--headless'))).toBe(true);
      expect(await listed()).toEqual([]);
    }, 120_000);
  },
);
