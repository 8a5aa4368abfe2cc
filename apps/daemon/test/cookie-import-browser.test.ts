import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type ChromeProcess, connectCri, launchChrome } from '@argus/cdp';
import { createArgusClient } from '@argus/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CHROME_FLAGS, codeOf, useHarness } from './harness.js';

/**
 * Issue 14's cookie-import-browser: a real Chromium profile (the user's own browser, here one we
 * launch with its own user-data dir and Linux's basic password store, as a desktop without a keyring
 * has) writes encrypted cookies to its SQLite database; Argus decrypts them into its managed browser.
 */
const h = useHarness();
const inAnHour = Math.floor(Date.now() / 1000) + 3600;
const SECRET = 'sid-Ω-7f3a9c'; // non-ASCII on purpose: the value is UTF-8 in the encrypted blob

describe('argus cookie-import-browser', () => {
  let userData = '';
  let chrome: ChromeProcess | undefined;

  beforeAll(async () => {
    userData = mkdtempSync(join(tmpdir(), 'argus-userdata-'));
    chrome = await launchChrome({ userDataDir: userData, extraFlags: [TEST_CHROME_FLAGS] });
    const transport = await connectCri(chrome.wsEndpoint);
    try {
      await transport.send(
        'Storage.setCookies',
        {
          cookies: [
            // host-only, on the fixture server
            { name: 'sid', value: SECRET, url: h.server.urlFor('/'), expires: inAnHour, httpOnly: true },
            // a domain cookie with every attribute
            {
              name: 'pref',
              value: 'dark',
              domain: '.example.test',
              path: '/app',
              secure: true,
              sameSite: 'Lax',
              expires: inAnHour,
            },
            // another site: left out by --domain
            { name: 'other', value: 'x', domain: 'other.test', path: '/', expires: inAnHour },
          ],
        },
        undefined,
      );
      // Chrome writes its cookie store to disk on the way out
      await transport.send('Browser.close', {}, undefined).catch(() => undefined);
    } finally {
      await transport.close();
    }
    await chrome.close();
    chrome = undefined;
  });

  afterAll(async () => {
    await chrome?.kill();
    rmSync(userData, { recursive: true, force: true });
  });

  it('the profile really holds encrypted values (so the import below must decrypt them)', () => {
    const db = new Database(join(userData, 'Default', 'Cookies'), { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare('SELECT name, value, encrypted_value FROM cookies').all() as Array<{
        name: string;
        value: string;
        encrypted_value: Buffer;
      }>;
      expect(rows.map((row) => row.name).sort()).toEqual(['other', 'pref', 'sid']);
      for (const row of rows) {
        expect(row.value).toBe('');
        expect(row.encrypted_value.subarray(0, 3).toString()).toBe('v10');
      }
    } finally {
      db.close();
    }
    // nowhere in the file in the clear
    expect(readFileSync(join(userData, 'Default', 'Cookies')).includes(Buffer.from(SECRET))).toBe(false);
  });

  it('imports the chosen domains, decrypted, with their attributes, and prints no value', async () => {
    const result = await h.client.state.cookieImportBrowser.mutate({
      userDataDir: userData,
      domain: ['127.0.0.1', 'example.test'],
    });
    expect(result).toMatchObject({ source: join(userData, 'Default', 'Cookies'), imported: 2, skipped: [] });
    expect(result.domains.map((entry) => entry.domain).sort()).toEqual(['127.0.0.1', 'example.test']);
    expect(JSON.stringify(result)).not.toContain(SECRET);

    await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') });
    const here = await h.client.inspect.cookies.query({ url: h.server.urlFor('/') });
    expect(here.cookies.find((cookie) => cookie.name === 'sid')).toMatchObject({ value: SECRET, httpOnly: true });
    const there = await h.client.inspect.cookies.query({ url: 'https://www.example.test/app/x' });
    const pref = there.cookies.find((cookie) => cookie.name === 'pref');
    expect(pref).toMatchObject({ value: 'dark', domain: '.example.test', path: '/app', secure: true, sameSite: 'Lax' });
    expect(Math.abs(Date.parse(pref?.expires ?? '') / 1000 - inAnHour)).toBeLessThan(2);
    const elsewhere = await h.client.inspect.cookies.query({ url: 'http://other.test/', name: 'other' });
    expect(elsewhere.cookies).toEqual([]);
  });

  it('says where it looked when there is no profile, and refuses a bad profile name', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'argus-userdata-'));
    try {
      const missing = h.client.state.cookieImportBrowser.mutate({ userDataDir: empty, profile: 'Profile 1' });
      await expect(missing).rejects.toThrow(/No cookie database in .*Profile 1/);
      expect(await codeOf(h.client.state.cookieImportBrowser.mutate({ userDataDir: empty }))).toBe(
        'browser_profile_not_found',
      );
      expect(
        await codeOf(h.client.state.cookieImportBrowser.mutate({ userDataDir: empty, profile: '../Default' })),
      ).toBe('invalid_input');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("a shared token (another machine's agent) cannot read the operator's browser", async () => {
    const minted = await h.client.token.share.mutate({ name: 'remote-cookies' });
    const agent = createArgusClient({ url: minted.url, token: minted.token });
    try {
      expect(await codeOf(agent.client.state.cookieImportBrowser.mutate({ userDataDir: userData }))).toBe(
        'forbidden_scope',
      );
    } finally {
      agent.close();
      await h.client.token.revoke.mutate({ id: minted.id });
    }
  });
});
