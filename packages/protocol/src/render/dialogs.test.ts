import { describe, expect, it } from 'vitest';
import { type RenderContext, renderCommand } from './index.js';

const cli: RenderContext = {
  surface: 'cli',
  input: {},
  label: (name) => name,
  hint: (name) => name,
};

const confirm = { type: 'confirm', message: 'Delete everything?', handled: 'dismissed', at: 1 };
const answer = (accept: boolean, promptText: string | null = null) => ({ accept, promptText, expiresAt: 1 });

describe('dialogs in replies other than an action', () => {
  it('a navigation, eval, wait and snapshot list the dialogs since the previous reply', () => {
    const nav = { url: 'http://x/', title: 'X', status: 200, dialogs: [confirm] };
    expect(renderCommand('page.goto', nav, cli)).toBe(
      'X — http://x/ (200)\ndialog confirm "Delete everything?" (dismissed)',
    );
    expect(renderCommand('page.eval', { value: 2, type: 'number', dialogs: [confirm] }, cli)).toBe(
      '2\ndialog confirm "Delete everything?" (dismissed)',
    );
    expect(renderCommand('page.wait', { waitedMs: 5, matched: 'time', dialogs: [confirm] }, cli)).toMatch(
      /^time after .*\ndialog confirm/,
    );
    const snapshot = { url: 'http://x/', title: 'X', text: 'button "Go" e1', refs: 1, truncated: false };
    expect(renderCommand('snapshot.take', { ...snapshot, dialogs: [confirm] }, cli)).toBe(
      'dialog confirm "Delete everything?" (dismissed)\nbutton "Go" e1',
    );
    expect(renderCommand('snapshot.take', snapshot, cli)).toBe('button "Go" e1');
  });
});

describe('dialogs in the reads an agent makes next', () => {
  it('text and html list them before the content (a long one must not bury them)', () => {
    expect(renderCommand('read.text', { text: 'Hello', truncated: false, dialogs: [confirm] }, cli)).toBe(
      'dialog confirm "Delete everything?" (dismissed)\nHello',
    );
    expect(renderCommand('read.text', { text: 'Hello', truncated: false }, cli)).toBe('Hello');
    expect(renderCommand('read.html', { html: '<p>Hi</p>', truncated: true, dialogs: [confirm] }, cli)).toBe(
      'dialog confirm "Delete everything?" (dismissed)\n<p>Hi</p>\n[truncated]',
    );
  });

  it('title, url and screenshot list them after their one line', () => {
    expect(renderCommand('read.title', { title: 'X', dialogs: [confirm] }, cli)).toBe(
      'X\ndialog confirm "Delete everything?" (dismissed)',
    );
    expect(renderCommand('page.url', { url: 'http://x/', title: 'X', dialogs: [confirm] }, cli)).toBe(
      'http://x/\ndialog confirm "Delete everything?" (dismissed)',
    );
    expect(renderCommand('page.url', { url: 'http://x/', title: 'X' }, cli)).toBe('http://x/');
    const shot = { path: '/tmp/a.png', format: 'png' as const, width: 2, height: 1, bytes: 9 };
    expect(renderCommand('page.screenshot', { ...shot, dialogs: [confirm] }, cli)).toBe(
      '/tmp/a.png (png 2x1, 9 bytes)\ndialog confirm "Delete everything?" (dismissed)',
    );
  });

  it('links, forms, accessibility, media, data, inspect, console and network list them first', () => {
    const line = 'dialog confirm "Delete everything?" (dismissed)';
    const links = { links: [{ text: 'Docs', href: 'http://x/docs' }], total: 1, truncated: false };
    expect(renderCommand('read.links', { ...links, dialogs: [confirm] }, cli)).toBe(`${line}\nDocs  http://x/docs`);
    expect(renderCommand('read.links', { links: [], total: 0, truncated: false, dialogs: [confirm] }, cli)).toBe(
      `${line}\n(no links)`,
    );
    expect(renderCommand('read.links', links, cli)).toBe('Docs  http://x/docs');
    expect(renderCommand('read.forms', { forms: [], dialogs: [confirm] }, cli)).toBe(`${line}\n(no form fields)`);
    expect(
      renderCommand('read.accessibility', { text: 'heading "X"', nodes: 1, truncated: false, dialogs: [confirm] }, cli),
    ).toBe(`${line}\nheading "X"`);
    const media = { images: [], videos: [], audio: [], truncated: false };
    expect(renderCommand('read.media', { ...media, dialogs: [confirm] }, cli)).toBe(`${line}\n(no media)`);
    const data = { jsonld: [], og: {}, twitter: {}, meta: {}, canonical: null, lang: 'en' };
    expect(renderCommand('read.data', { ...data, dialogs: [confirm] }, cli)).toBe(`${line}\nlang: en`);
    const element = { element: 'paragraph', rules: [], inline: [], box: null };
    expect(renderCommand('inspect.element', { ...element, dialogs: [confirm] }, cli)).toBe(
      `${line}\nparagraph\nbox: none (not rendered)`,
    );
    const buffer = { lastSeq: 0, omitted: 0, cleared: false };
    expect(renderCommand('capture.console', { ...buffer, messages: [], dialogs: [confirm] }, cli)).toBe(
      `${line}\n(no console messages)`,
    );
    expect(renderCommand('capture.network', { ...buffer, requests: [], dialogs: [confirm] }, cli)).toBe(
      `${line}\n(no requests)`,
    );
  });

  it('css and is after their one line; attrs, cookies, storage, perf and network get first', () => {
    const line = 'dialog confirm "Delete everything?" (dismissed)';
    const css = { element: 'paragraph', property: 'color', value: 'rgb(0, 0, 0)' };
    expect(renderCommand('inspect.css', { ...css, dialogs: [confirm] }, cli)).toBe(`rgb(0, 0, 0)\n${line}`);
    expect(renderCommand('inspect.css', css, cli)).toBe('rgb(0, 0, 0)');
    const is = { element: 'button "Delete later"', state: 'visible', value: true };
    expect(renderCommand('inspect.is', { ...is, dialogs: [confirm] }, cli)).toBe(`true\n${line}`);
    expect(renderCommand('inspect.is', is, cli)).toBe('true');
    const attrs = { element: 'button', tag: 'button', attributes: { id: 'late' } };
    expect(renderCommand('inspect.attrs', { ...attrs, dialogs: [confirm] }, cli)).toBe(`${line}\nid="late"`);
    expect(renderCommand('inspect.attrs', attrs, cli)).toBe('id="late"');
    expect(renderCommand('inspect.cookies', { urls: [], cookies: [], dialogs: [confirm] }, cli)).toBe(
      `${line}\n(no cookies)`,
    );
    const storage = { origin: 'http://x', local: {}, session: {}, truncated: false, dialogs: [confirm] };
    expect(renderCommand('inspect.storage', storage, cli).split('\n').slice(0, 2)).toEqual([line, 'origin http://x']);
    const perf = {
      url: 'http://x/',
      navigationType: 'navigate',
      ttfbMs: 1,
      fcpMs: null,
      lcpMs: null,
      domContentLoadedMs: null,
      loadMs: null,
      durationMs: null,
      transferSize: 0,
      encodedBodySize: 0,
      decodedBodySize: 0,
      resources: { count: 0, transferSize: 0 },
    };
    expect(
      renderCommand('inspect.perf', { ...perf, dialogs: [confirm] }, cli)
        .split('\n')
        .slice(0, 2),
    ).toEqual([line, expect.stringMatching(/^url +http:\/\/x\/ \(navigate\)$/)]);
    expect(renderCommand('inspect.perf', perf, cli)).not.toContain('dialog');
    const request = {
      id: 3,
      method: 'GET',
      url: 'http://x/',
      type: 'Document',
      status: 200,
      statusText: 'OK',
      mimeType: 'text/html',
      state: 'finished',
      startedAt: 1,
      durationMs: 12,
      encodedBytes: null,
      decodedBytes: 10,
      fromCache: false,
      errorText: null,
      requestHeaders: {},
      responseHeaders: {},
      redacted: false,
      body: null,
      base64: false,
      bodyBytes: null,
      truncated: false,
      bodyNote: null,
    };
    expect(
      renderCommand('capture.networkGet', { ...request, dialogs: [confirm] }, cli)
        .split('\n')
        .slice(0, 2),
    ).toEqual([line, '#3 GET 200 Document 12 ms 10 B http://x/']);
    expect(renderCommand('capture.networkGet', request, cli)).toMatch(/^#3 GET 200 Document/);
  });

  it('canvas node-of after its one line', () => {
    const line = 'dialog confirm "Delete everything?" (dismissed)';
    const inPreview = { element: 'button "Sign up"', node: 'cta', doc: 'landing' };
    expect(renderCommand('canvas.nodeOf', { ...inPreview, dialogs: [confirm] }, cli)).toBe(
      `cta (landing)  button "Sign up"\n${line}`,
    );
    expect(renderCommand('canvas.nodeOf', inPreview, cli)).toBe('cta (landing)  button "Sign up"');
    const outside = { element: 'button "Delete later"', node: null, doc: null, dialogs: [confirm] };
    expect(renderCommand('canvas.nodeOf', outside, cli)).toBe(`button "Delete later": no canvas node\n${line}`);
  });

  it('canvas import after its lines', () => {
    const line = 'dialog confirm "Delete everything?" (dismissed)';
    const imported = {
      doc: 'landing',
      revision: 3,
      root: 'n1',
      nodes: 12,
      truncated: false,
      skipped: 2,
      element: 'button "Sign up"',
      size: '120x40',
    };
    const head =
      'imported button "Sign up" (120x40) as 12 node(s) under n1 in landing, revision 3\n2 hidden element(s) left out';
    expect(renderCommand('canvas.import', { ...imported, dialogs: [confirm] }, cli)).toBe(`${head}\n${line}`);
    expect(renderCommand('canvas.import', imported, cli)).toBe(head);
  });
});

describe('armed answers', () => {
  it('the reply to arming says which dialog it is for and how many are armed', () => {
    expect(renderCommand('capture.dialogAccept', { armed: [answer(true, 'Ada')] }, cli)).toMatch(
      /^the next dialog will be accepted with "Ada" \(1 armed, /,
    );
    expect(renderCommand('capture.dialogDismiss', { armed: [answer(true), answer(false)] }, cli)).toMatch(
      /^dialog 2 from now will be dismissed \(2 armed, /,
    );
  });

  it('the log shows the queue, and what --disarm dropped', () => {
    const log = { dialogs: [], lastSeq: 0, cleared: false };
    expect(renderCommand('capture.dialogs', { ...log, armed: [answer(true), answer(false)], disarmed: 0 }, cli)).toBe(
      '(no dialogs)\narmed for the next 2 dialogs, in order: 1. accept, 2. dismiss; then the default',
    );
    expect(renderCommand('capture.dialogs', { ...log, armed: [], disarmed: 3 }, cli)).toBe(
      '(no dialogs)\n3 armed answer(s) dropped\nnext dialog: default (alert/beforeunload accepted, confirm/prompt dismissed)',
    );
  });
});
