import { describe, expect, it } from 'vitest';
import { redactInput, redactMessage, redactUrl } from './journal-redact.js';

const SECRET = 'S3cret-value-91';

describe('journal redaction', () => {
  it("redacts a call's input once for the observers that settle it together, afresh for the next call", async () => {
    const input = { target: 'e4', text: SECRET };
    const output = { element: 'textbox', value: '••••' };
    const first = redactInput('input.fill', input, output);
    expect(redactInput('input.fill', input, output)).toBe(first);
    // another output (a failed call: none) is another redaction
    expect(redactInput('input.fill', input)).not.toBe(first);
    await Promise.resolve();
    const later = redactInput('input.fill', input, output);
    expect(later).not.toBe(first);
    expect(later).toEqual(first);
  });

  it('keeps an ordinary fill, cuts a masked (password) one, a failed one and one whose locator names a credential', () => {
    const plain = redactInput('input.fill', { target: 'e3', text: 'Ada' }, { element: 'textbox', value: 'Ada' });
    expect(JSON.parse(plain.json)).toMatchObject({ text: 'Ada' });
    const masked = redactInput('input.fill', { target: 'e4', text: SECRET }, { element: 'textbox', value: '••••' });
    expect(masked.json).not.toContain(SECRET);
    expect(masked.secrets).toContain(SECRET);
    expect(redactInput('input.fill', { target: 'e4', text: SECRET }).json).not.toContain(SECRET);
    const byName = redactInput('input.fill', { target: '#pwd', text: SECRET }, { value: SECRET });
    expect(byName.json).not.toContain(SECRET);
  });

  it('cuts values of cookies, storage, headers, config, cdp params, typed text and batch steps', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['state.cookieSet', { cookie: `sid=${SECRET}` }],
      ['inspect.storageSet', { key: 'k', value: SECRET }],
      ['emulation.header', { header: `Authorization: Bearer ${SECRET}` }],
      ['config.set', { key: 'providers.search.braveApiKey', value: SECRET }],
      ['cdp.send', { method: 'Network.setCookie', params: { name: 'a', value: SECRET } }],
      ['input.type', { text: SECRET }],
      ['capture.dialogAccept', { text: SECRET }],
      ['batch.chain', { steps: [{ command: 'input.type', input: { text: SECRET } }] }],
      ['batch.run', { commands: [{ command: 'state.cookieSet', input: { cookie: `a=${SECRET}` } }] }],
      ['batch.tabEach', { command: 'inspect.storageSet', input: { key: 'k', value: SECRET } }],
      ['page.goto', { url: `https://example.com/cb?access_token=${SECRET}&page=2` }],
      ['page.eval', { js: `fetch('/x', { headers: { a: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl' } })` }],
    ];
    for (const [path, input] of cases) {
      const { json } = redactInput(path, input);
      expect(json, path).not.toContain(SECRET);
      expect(json, path).not.toContain('eyJzdWIiOiIxIn0');
      expect(json, path).toMatch(/redacted/);
    }
    expect(JSON.parse(redactInput('state.cookieSet', { cookie: `sid=${SECRET}` }).json)).toEqual({
      cookie: 'sid=[redacted]',
    });
    expect(redactInput('page.goto', { url: 'https://example.com/?page=2' }).json).toContain('page=2');
  });

  it('cuts URL passwords, secret query values and token fragments, and input secrets from messages', () => {
    const url = `https://user:${SECRET}@example.com/?q=cats&api_key=${SECRET}#access_token=${SECRET}`;
    const cut = 'https://user:redacted@example.com/?q=cats&api_key=%5Bredacted%5D#[redacted]';
    expect(redactUrl(url)).toBe(cut);
    // the same URL again (a tab's, call after call) comes from the recent ones: the same cut copy,
    // and past the cache's size too
    expect(redactUrl(url)).toBe(cut);
    for (let page = 0; page < 20; page++)
      expect(redactUrl(`https://example.com/?page=${page}`)).toContain(`page=${page}`);
    expect(redactUrl(url)).toBe(cut);
    expect(redactMessage(`No option "${SECRET}" in the list`, [SECRET])).toBe('No option "[redacted]" in the list');
  });

  it("cuts a fetched URL's password and token from the error message that quotes it", () => {
    const url = `http://alice:${SECRET}@127.0.0.1:8080/404?token=TOKSECRET99&page=2`;
    const { json, secrets } = redactInput('web.fetch', { url, http: true });
    expect(json).not.toContain(SECRET);
    expect(json).not.toContain('TOKSECRET99');
    const message = redactMessage(`${url} answered 404: the page is gone.`, secrets);
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('TOKSECRET99');
    expect(message).toContain('page=2');
  });

  it("cuts the access tokens of a pool's endpoints", () => {
    const { json } = redactInput('session.connect', {
      pool: [`ws://grid:3000/chromium?token=${SECRET}`, 'http://127.0.0.1:9222'],
    });
    expect(json).not.toContain(SECRET);
    expect(JSON.parse(json).pool).toEqual(['ws://grid:3000/chromium?token=%5Bredacted%5D', 'http://127.0.0.1:9222/']);
  });

  it("cuts the caller's declared secrets from any field, even a fill proven plain, and from its error", () => {
    const input = { target: 'label=Username', text: `user ${SECRET}` };
    const redacted = redactInput('input.fill', input, { element: 'textbox', value: `user ${SECRET}` }, [SECRET]);
    expect(redacted.json).not.toContain(SECRET);
    expect(JSON.parse(redacted.json)).toMatchObject({ target: 'label=Username', text: '[redacted]' });
    expect(redactMessage(`typed ${SECRET} into the box`, redacted.secrets)).not.toContain(SECRET);
    // without them the same fill is kept: the declared list is what cut it
    expect(redactInput('input.fill', input, { element: 'textbox', value: `user ${SECRET}` }).json).toContain(SECRET);
    // a one-letter secret cuts only a string that is exactly it
    expect(JSON.parse(redactInput('input.fill', { target: '#a', text: 'a' }, { value: 'a' }, ['a']).json)).toEqual({
      target: '#a',
      text: '[redacted]',
    });
  });
});
