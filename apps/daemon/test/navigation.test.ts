import { ArgusError } from '@argus/protocol/errors';
import { describe, expect, it } from 'vitest';
import { BASIC_AUTH, startFixtureServer } from '@argus/test-kit';
import { useHarness } from './harness.js';

const h = useHarness();

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ArgusError)) throw new Error(`expected an ArgusError, got ${String(error)}`);
  return error.code;
}

/** Same-document navigations never commit a document: an action that starts one must not wait for one. */
describe('actions that navigate within the document return at once', () => {
  // far below the 30 s navigation timeout the action would otherwise wait out; the real figure is
  // the hash-click bench (bench/nav-click-bench.mjs), not this bound
  const NO_WAIT_MS = 5_000;

  it('a fragment link of a hash-routed app', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/todo-hash.html') });
    const started = performance.now();
    const clicked = await h.client.input.click.mutate({ target: '#active' });
    expect(performance.now() - started).toBeLessThan(NO_WAIT_MS);
    expect(clicked).toMatchObject({ navigated: true, openedTabs: [], download: null });
    expect(clicked.url).toMatch(/todo-hash\.html#\/active$/);
    expect((await h.client.read.text.query({ target: '#route' })).text).toBe('route: /active');
    expect((await h.client.read.text.query({ target: '#list' })).text).toContain('pay the gas bill');
    expect((await h.client.read.text.query({ target: '#list' })).text).not.toContain('water the plants');
  });

  it('Enter in a field whose form handler calls preventDefault and routes', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/todo-hash.html') });
    await h.client.input.fill.mutate({ target: '#new-todo', text: 'buy milk' });
    const started = performance.now();
    const pressed = await h.client.input.press.mutate({ key: 'Enter' });
    expect(performance.now() - started).toBeLessThan(NO_WAIT_MS);
    expect(pressed.navigated).toBe(true);
    expect(pressed.url).toMatch(/#\/active$/);
    expect((await h.client.read.text.query({ target: '#list' })).text).toContain('buy milk');
  });

  it('pushState and replaceState router links, and a search form routed with pushState', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/router-push.html') });
    const started = performance.now();
    const inbox = await h.client.input.click.mutate({ target: '#inbox' });
    expect(performance.now() - started).toBeLessThan(NO_WAIT_MS);
    expect(inbox.navigated).toBe(true);
    expect(inbox.url).toMatch(/\/router-push\.html\/inbox$/);
    const settings = await h.client.input.click.mutate({ target: '#settings' });
    expect(settings.url).toMatch(/\/settings$/);
    expect((await h.client.read.text.query({ target: '#view' })).text).toBe('Settings');
    await h.client.input.fill.mutate({ target: '#q', text: 'invoices' });
    const searched = await h.client.input.press.mutate({ key: 'Enter' });
    expect(searched.url).toMatch(/\/search\?q=invoices$/);
    expect((await h.client.read.text.query({ target: '#view' })).text).toBe('Search: invoices');
    // back across pushState entries is a same-document history navigation too
    const back = await h.client.page.back.mutate({ timeoutMs: 5_000 });
    expect(back.url).toMatch(/\/settings$/);
  });
});

describe('actions that leave the document', () => {
  it('a real cross-document link still waits for the new page to load', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/todo-hash.html') });
    const clicked = await h.client.input.click.mutate({ target: '#help' });
    expect(clicked).toMatchObject({ navigated: true, openedTabs: [], download: null });
    expect(clicked.url).toMatch(/nav-b\.html$/);
    // the action waited for the new document's load event
    expect((await h.client.page.eval.mutate({ js: 'document.readyState + " " + document.title' })).value).toBe(
      'complete Page B',
    );
  });

  it('a target=_blank link reports the tab it opened and leaves the active tab alone', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/todo-hash.html') });
    const before = await h.client.tabs.list.query({});
    const clicked = await h.client.input.click.mutate({ target: '#popup' });
    expect(clicked.navigated).toBe(false);
    expect(clicked.openedTabs).toHaveLength(1);
    const opened = clicked.openedTabs[0]!;
    expect(opened.url).toMatch(/nav-a\.html$/);
    const after = await h.client.tabs.list.query({});
    expect(after.tabs.map((tab) => tab.id)).toContain(opened.id);
    expect(after.tabs.length).toBe(before.tabs.length + 1);
    expect((await h.client.page.url.query({})).url).toMatch(/todo-hash\.html/);
    await h.client.tabs.close.mutate({ id: opened.id });
  });

  it('a link that starts a download is reported without waiting', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/todo-hash.html') });
    const started = performance.now();
    const clicked = await h.client.input.click.mutate({ target: '#export' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(clicked.navigated).toBe(false);
    expect(clicked.download).toMatchObject({ filename: 'todos.txt' });
    expect(clicked.download?.url).toMatch(/\/download\/todos\.txt$/);
    expect(clicked.url).toMatch(/todo-hash\.html/);
  });
});

describe('timeouts bound every navigation wait', () => {
  it('goto to a server that answers too late fails with navigation_timeout within the timeout, and the tab stays usable', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    const started = performance.now();
    const code = await codeOf(h.client.page.goto.mutate({ url: h.server.urlFor('/slow?ms=9000'), timeoutMs: 1_000 }));
    const elapsed = performance.now() - started;
    expect(code).toBe('navigation_timeout');
    expect(elapsed).toBeLessThan(5_000); // the server answers after 9 s
    expect((await h.client.page.url.query({})).url).toMatch(/nav-a\.html$/);
    const next = await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-b.html'), timeoutMs: 5_000 });
    expect(next.title).toBe('Page B');
  });

  it('goto to a server that never answers fails with navigation_timeout and the next command runs', async () => {
    const code = await codeOf(h.client.page.goto.mutate({ url: h.server.urlFor('/hang'), timeoutMs: 1_000 }));
    expect(code).toBe('navigation_timeout');
    const url = await h.client.page.url.query({});
    expect(url.url).not.toMatch(/\/hang/);
    expect((await h.client.read.text.query({})).text).toBeTruthy();
  });

  it('a client that disconnects cancels its pending navigation; the queued command behind it runs', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    const controller = new AbortController();
    const pending = h.client.page.goto
      .mutate({ url: h.server.urlFor('/hang'), timeoutMs: 60_000 }, { signal: controller.signal })
      .catch((e: unknown) => e);
    // give the request time to reach the daemon and start navigating
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await pending;
    const started = performance.now();
    const url = await h.client.page.url.query({});
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(url.url).toMatch(/nav-a\.html$/);
    expect((await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-b.html'), timeoutMs: 5_000 })).title).toBe(
      'Page B',
    );
  });
});

/**
 * Chrome answers a failed navigation before its error page commits, and refuses Page commands
 * (history, reload, screenshot) in between (packages/cdp/test/between-documents.test.ts).
 */
describe('a tab between two documents', () => {
  it('a failed goto reports once its error page is in: back goes back at once', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    expect(await codeOf(h.client.page.goto.mutate({ url: 'http://127.0.0.1:1/' }))).toBe('navigation_failed');
    // the error page, not the page the navigation left
    expect((await h.client.page.url.query({})).url).toBe('http://127.0.0.1:1/');
    const back = await h.client.page.back.mutate({ timeoutMs: 5_000 });
    expect(back.url).toMatch(/nav-a\.html$/);
    expect(back.title).toBe('Page A');
  });
});

/**
 * Chrome answers Page.reload and Page.navigateToHistoryEntry without an error, and a document that
 * cannot be loaded commits its error page (chrome-error://chromewebdata/): the command must fail as a
 * goto to an unreachable server does.
 */
describe('reload, back and forward to a document that cannot be loaded', () => {
  async function failure(promise: Promise<unknown>): Promise<ArgusError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof ArgusError)) throw new Error(`expected an ArgusError, got ${String(error)}`);
    return error;
  }

  it('fail with navigation_failed naming the URL and the network error once its server is gone', async () => {
    const before = await startFixtureServer();
    const after = await startFixtureServer();
    try {
      const gone = before.urlFor('/nav-a.html');
      const goneToo = after.urlFor('/nav-a.html');
      await h.client.page.goto.mutate({ url: gone });
      await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-b.html') });
      await h.client.page.goto.mutate({ url: goneToo });
      expect((await h.client.page.reload.mutate({})).title).toBe('Page A');
      expect((await h.client.page.back.mutate({})).title).toBe('Page B');
      await before.close();
      await after.close();

      const forward = await failure(h.client.page.forward.mutate({}));
      expect(forward.code).toBe('navigation_failed');
      expect(forward.message).toContain(goneToo);
      expect(forward.message).toContain('net::ERR_CONNECTION_REFUSED');
      expect(forward.message).toContain('argus reload');
      expect(forward.details).toMatchObject({ url: goneToo, errorText: 'net::ERR_CONNECTION_REFUSED' });
      expect((await h.client.page.url.query({})).url).toBe(goneToo);

      const reload = await failure(h.client.page.reload.mutate({}));
      expect(reload.code).toBe('navigation_failed');
      expect(reload.details).toMatchObject({ url: goneToo, errorText: 'net::ERR_CONNECTION_REFUSED' });

      // the tab is settled on the error page: the next history step works at once
      expect((await h.client.page.back.mutate({})).title).toBe('Page B');
      const back = await failure(h.client.page.back.mutate({}));
      expect(back.code).toBe('navigation_failed');
      expect(back.details).toMatchObject({ url: gone, errorText: 'net::ERR_CONNECTION_REFUSED' });
    } finally {
      await before.close();
      await after.close();
    }
  });

  it('an HTTP error status with a page is a document, as for goto: reload reports its status', async () => {
    const page = h.server.urlFor('/status/500');
    expect(await h.client.page.goto.mutate({ url: page })).toMatchObject({ title: 'Status 500', status: 500 });
    expect(await h.client.page.reload.mutate({})).toMatchObject({ url: page, title: 'Status 500', status: 500 });
    await h.client.page.goto.mutate({ url: h.server.urlFor('/status/404') });
    expect(await h.client.page.back.mutate({})).toMatchObject({ url: page, status: 500 });
    expect(await h.client.page.forward.mutate({})).toMatchObject({ title: 'Status 404', status: 404 });
  });
});

describe('a page behind HTTP authentication', () => {
  it('says how to give credentials, takes them in the URL and never reports the password', async () => {
    const page = h.server.urlFor('/basic-auth');
    const refused = await h.client.page.goto.mutate({ url: page }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ArgusError);
    expect((refused as ArgusError).code).toBe('navigation_failed');
    expect((refused as ArgusError).message).toMatch(/HTTP authentication.*http:\/\/user:password@host/);

    const { user, password } = BASIC_AUTH;
    const wrong = page.replace('http://', `http://${user}:not-the-password@`);
    expect(((await h.client.page.goto.mutate({ url: wrong }).catch((e: unknown) => e)) as ArgusError).message).toMatch(
      /HTTP authentication/,
    );

    const signedIn = await h.client.page.goto.mutate({ url: page.replace('http://', `http://${user}:${password}@`) });
    expect(signedIn.title).toBe('Signed in');
    expect(signedIn.url).toBe(page.replace('http://', `http://${user}:***@`));
    const reported = JSON.stringify([
      signedIn,
      await h.client.page.url.query({}),
      await h.client.tabs.list.query({}),
      await h.client.snapshot.take.mutate({}),
    ]);
    expect(reported).toContain('Hello, alice');
    expect(reported).not.toContain(password);
    // Chrome keeps the credentials for the realm: the plain URL now signs in too
    expect((await h.client.page.goto.mutate({ url: page })).title).toBe('Signed in');
  });
});
