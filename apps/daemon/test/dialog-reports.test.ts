import { createArgusClient } from '@argus/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { codeOf, useHarness } from './harness.js';

const h = useHarness();

const page = (query = '') => h.server.urlFor(`/dialog-timing.html${query}`);

/** The page's own note of how its last dialog was answered. */
const result = async () => (await h.client.read.text.query({ target: '#dialog-result' })).text;

/**
 * Clicks the button whose confirm a timer opens 300 ms later, and waits until the tab has answered
 * it. It waits on the daemon's own record of the tab's dialogs, not on a reply: every read an agent
 * makes (text too) reports the confirm, so polling one would take the report the test looks for.
 */
async function lateConfirm(): Promise<void> {
  const tab = await h.daemon.services.manager.page();
  const from = tab.capture.dialogs.seq;
  const clicked = await h.client.input.click.mutate({ target: '#late' });
  // the click's reply comes before the confirm opens: it cannot report it
  expect(clicked.dialogs).toEqual([]);
  await vi.waitFor(
    () =>
      expect(tab.capture.dialogs.entries(from).map(({ item }) => `${item.message} ${item.handled}`)).toEqual([
        'Delete everything? dismissed',
      ]),
    { timeout: 5_000 },
  );
}

const lateDialog = {
  type: 'confirm',
  message: 'Delete everything?',
  handled: 'dismissed',
  at: expect.any(Number),
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('dialogs opened outside an action are reported by the next reply, once', () => {
  it('a confirm a timer opened after the click: in the next snapshot, then in no other reply', async () => {
    await h.client.page.goto.mutate({ url: page() });
    const before = Date.now();
    await lateConfirm();
    const snapshot = await h.client.snapshot.take.mutate({ interactive: true });
    expect(snapshot.dialogs).toEqual([lateDialog]);
    expect(snapshot.dialogs?.[0]?.at).toBeGreaterThanOrEqual(before);
    expect((await h.client.snapshot.take.mutate({ interactive: true })).dialogs).toBeUndefined();
    expect((await h.client.input.click.mutate({ target: 'h1' })).dialogs).toEqual([]);
  });

  it('in the next action, eval, wait or navigation', async () => {
    await h.client.page.goto.mutate({ url: page() });
    await lateConfirm();
    expect((await h.client.input.click.mutate({ target: 'h1' })).dialogs).toEqual([lateDialog]);

    await lateConfirm();
    expect((await h.client.page.eval.mutate({ js: '1 + 1' })).dialogs).toEqual([lateDialog]);

    await lateConfirm();
    expect((await h.client.page.wait.mutate({ ms: 1 })).dialogs).toEqual([lateDialog]);

    await lateConfirm();
    expect((await h.client.page.reload.mutate({})).dialogs).toEqual([lateDialog]);
  });

  it('in the reads an agent makes next: text, html, title, url, screenshot', async () => {
    await h.client.page.goto.mutate({ url: page() });
    await lateConfirm();
    const read = await h.client.read.text.query({ target: '#dialog-result' });
    expect(read.dialogs).toEqual([lateDialog]);
    // once: neither the next read nor the next snapshot repeats it
    expect((await h.client.read.text.query({ target: '#dialog-result' })).dialogs).toBeUndefined();
    expect((await h.client.snapshot.take.mutate({})).dialogs).toBeUndefined();

    await lateConfirm();
    expect((await h.client.read.html.query({ target: '#dialog-result' })).dialogs).toEqual([lateDialog]);
    await lateConfirm();
    expect((await h.client.read.title.query({})).dialogs).toEqual([lateDialog]);
    await lateConfirm();
    expect((await h.client.page.url.query({})).dialogs).toEqual([lateDialog]);
    await lateConfirm();
    expect((await h.client.page.screenshot.mutate({ base64: true })).dialogs).toEqual([lateDialog]);
    expect((await h.client.page.screenshot.mutate({ base64: true })).dialogs).toBeUndefined();
    expect((await h.client.page.url.query({})).dialogs).toBeUndefined();
  });

  it('in the lists and documents: links, forms, accessibility, media, data, inspect, console, network', async () => {
    await h.client.page.goto.mutate({ url: page() });
    const reads = {
      links: () => h.client.read.links.query({}),
      forms: () => h.client.read.forms.mutate({}),
      accessibility: () => h.client.read.accessibility.query({}),
      media: () => h.client.read.media.query({}),
      data: () => h.client.read.data.query({}),
      inspect: () => h.client.inspect.element.query({ target: '#dialog-result' }),
      console: () => h.client.capture.console.query({}),
      network: () => h.client.capture.network.query({}),
    };
    for (const [name, read] of Object.entries(reads)) {
      await lateConfirm();
      expect((await read()).dialogs, name).toEqual([lateDialog]);
      // once: the same read again does not repeat it
      expect((await read()).dialogs, `${name} again`).toBeUndefined();
    }
  });

  it('in the element, storage and request reads: css, attrs, is, cookies, storage, perf, network get', async () => {
    await h.client.page.goto.mutate({ url: page() });
    // the document's request id, read before any confirm: the list reports dialogs too
    const { requests } = await h.client.capture.network.query({ filter: 'dialog-timing' });
    const id = requests[0]?.id ?? 0;
    expect(id).toBeGreaterThan(0);
    const reads = {
      css: () => h.client.inspect.css.query({ target: '#dialog-result', property: 'color' }),
      attrs: () => h.client.inspect.attrs.query({ target: '#late' }),
      is: () => h.client.inspect.is.query({ target: '#late', state: 'visible' }),
      // a selector that matches nothing answers too (hidden, not an error)
      'is, nothing matches': () => h.client.inspect.is.query({ target: '#nothing', state: 'hidden' }),
      cookies: () => h.client.inspect.cookies.query({}),
      storage: () => h.client.inspect.storage.query({}),
      perf: () => h.client.inspect.perf.query({}),
      'network get': () => h.client.capture.networkGet.query({ id }),
    };
    for (const [name, read] of Object.entries(reads)) {
      await lateConfirm();
      expect((await read()).dialogs, name).toEqual([lateDialog]);
      // once: the same read again does not repeat it
      expect((await read()).dialogs, `${name} again`).toBeUndefined();
    }
  });

  it('in canvas node-of, which reads an element of the page as the other element reads do', async () => {
    await h.client.page.goto.mutate({ url: page() });
    await lateConfirm();
    const read = () => h.client.canvas.nodeOf.query({ target: '#late' });
    const first = await read();
    // a page that is no canvas preview: no node, no document, and the dialog all the same
    expect(first).toMatchObject({ node: null, doc: null });
    expect(first.dialogs).toEqual([lateDialog]);
    expect((await read()).dialogs).toBeUndefined();
  });

  it('in canvas import, which reads an element of the page; a refused import leaves them to the next reply', async () => {
    await h.client.page.goto.mutate({ url: page() });
    await lateConfirm();
    const id = `dialogs-${Date.now()}`;
    const imported = await h.client.canvas.import.mutate({ target: '#late', id });
    expect(imported).toMatchObject({ doc: id, element: 'button "Delete later"' });
    expect(imported.dialogs).toEqual([lateDialog]);
    expect((await h.client.canvas.import.mutate({ target: '#late', id: `${id}-2` })).dialogs).toBeUndefined();
    // refused (that document exists): the confirm is still the next reply's
    await lateConfirm();
    expect(await codeOf(h.client.canvas.import.mutate({ target: '#late', id }))).toBe('file_exists');
    expect((await h.client.read.text.query({ target: '#dialog-result' })).dialogs).toEqual([lateDialog]);
  });

  it('eval reports the dialogs its script opened', async () => {
    await h.client.page.goto.mutate({ url: page() });
    const evaluated = await h.client.page.eval.mutate({ js: "confirm('From eval?')" });
    expect(evaluated.value).toBe(false);
    expect(evaluated.dialogs).toEqual([
      { type: 'confirm', message: 'From eval?', handled: 'dismissed', at: expect.any(Number) },
    ]);
    expect((await h.client.page.eval.mutate({ js: '1' })).dialogs).toBeUndefined();
  });

  it('a page in an alert loop: a reply carries the 20 newest, the log keeps all', async () => {
    await h.client.page.goto.mutate({ url: page() });
    const { lastSeq } = await h.client.capture.dialogs.query({});
    const evaluated = await h.client.page.eval.mutate({ js: 'for (let i = 0; i < 25; i++) alert(`n${i}`)' });
    expect(evaluated.dialogs?.map((d) => d.message)).toEqual(Array.from({ length: 20 }, (_, i) => `n${i + 5}`));
    expect((await h.client.capture.dialogs.query({ since: lastSeq })).dialogs).toHaveLength(25);
  });

  it('goto reports an alert the page opened while loading', async () => {
    const loaded = await h.client.page.goto.mutate({ url: page('?greet') });
    expect(loaded.dialogs).toEqual([
      { type: 'alert', message: 'Welcome back', handled: 'accepted', at: expect.any(Number) },
    ]);
    expect((await h.client.page.goto.mutate({ url: page() })).dialogs).toBeUndefined();
  });

  it('the dialog log counts as seen: no later reply repeats what it listed', async () => {
    await h.client.page.goto.mutate({ url: page() });
    await lateConfirm();
    const log = await h.client.capture.dialogs.query({});
    expect(log.dialogs.at(-1)).toMatchObject({ type: 'confirm', message: 'Delete everything?', handled: 'dismissed' });
    expect((await h.client.snapshot.take.mutate({})).dialogs).toBeUndefined();
  });
});

describe('armed answers are a queue', () => {
  it('two answers armed answer two dialogs, in order', async () => {
    await h.client.page.goto.mutate({ url: page() });
    expect((await h.client.capture.dialogAccept.mutate({})).armed).toHaveLength(1);
    const second = await h.client.capture.dialogAccept.mutate({});
    expect(second.armed.map((a) => a.accept)).toEqual([true, true]);
    const clicked = await h.client.input.click.mutate({ target: '#two' });
    expect(clicked.dialogs.map((d) => [d.message, d.handled])).toEqual([
      ['First question?', 'accepted'],
      ['Second question?', 'accepted'],
    ]);
    expect(await result()).toBe('two: true true');
    expect((await h.client.capture.dialogs.query({})).armed).toEqual([]);

    await h.client.capture.dialogDismiss.mutate({});
    expect((await h.client.capture.dialogAccept.mutate({})).armed.map((a) => a.accept)).toEqual([false, true]);
    await h.client.input.click.mutate({ target: '#two' });
    expect(await result()).toBe('two: false true');
  });

  it('at most 20; --disarm drops them (a write token only)', async () => {
    await h.client.page.goto.mutate({ url: page() });
    for (let i = 0; i < 20; i++) await h.client.capture.dialogDismiss.mutate({});
    expect(await codeOf(h.client.capture.dialogAccept.mutate({}))).toBe('invalid_input');
    const { token } = await h.client.token.create.mutate({ scope: 'read' });
    const reader = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token });
    try {
      expect(await codeOf(reader.client.capture.dialogs.query({ disarm: true }))).toBe('forbidden_scope');
      expect((await reader.client.capture.dialogs.query({})).armed).toHaveLength(20);
    } finally {
      reader.close();
    }
    const disarmed = await h.client.capture.dialogs.query({ disarm: true });
    expect(disarmed).toMatchObject({ disarmed: 20, armed: [] });
    await h.client.capture.dialogAccept.mutate({});
    await h.client.capture.dialogs.query({ disarm: true });
    await h.client.input.click.mutate({ target: '#two' });
    expect(await result()).toBe('two: false false');
  });

  it('an answer no dialog used lapses after 5 minutes', async () => {
    await h.client.page.goto.mutate({ url: page() });
    const armed = await h.client.capture.dialogAccept.mutate({});
    const expiresAt = armed.armed[0]?.expiresAt ?? 0;
    expect(expiresAt - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    // the daemon runs in this process: its clock, six minutes on
    const now = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => now() + 6 * 60_000);
    expect((await h.client.capture.dialogs.query({})).armed).toEqual([]);
    await h.client.input.click.mutate({ target: '#two' });
    expect(await result()).toBe('two: false false');
  });
});
