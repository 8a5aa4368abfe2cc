import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArgusError } from '@argus/protocol';
import { findChrome, locateChrome } from './find-chrome.js';
import { installBrowser } from './install-browser.js';

// A fresh machine played on one that has Chromium: no system paths, no CHROME_PATH, no PATH, and a
// HOME of our own whose caches the tests fill (or not).
let home: string;
let env: NodeJS.ProcessEnv;
const none: string[] = [];

function fakeBinary(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'argus-fresh-home-'));
  env = { HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('the one Chrome finder', () => {
  it('finds nothing on a fresh machine and says to run argus install-browser', () => {
    expect(locateChrome(env, none)).toBeUndefined();
    expect(() => findChrome(env, none)).toThrow(ArgusError);
    expect(() => findChrome(env, none)).toThrow(
      /No Chrome or Chromium found .*\.cache\/puppeteer.*Run `argus install-browser`/,
    );
    expect(() => findChrome({ ...env, CHROME_PATH: join(home, 'nope') }, none)).toThrow(
      /CHROME_PATH is set to .*nope.*unset CHROME_PATH/,
    );
  });

  it('finds Chrome for Testing in the Puppeteer cache, newest build first', () => {
    fakeBinary(join(home, '.cache/puppeteer/chrome/linux-119.0.6045.105/chrome-linux64/chrome'));
    const newest = fakeBinary(join(home, '.cache/puppeteer/chrome/linux-131.0.6778.85/chrome-linux64/chrome'));
    expect(locateChrome(env, none)).toEqual({ path: newest, source: 'puppeteer cache' });
  });

  it('finds Playwright Chromium (both layouts) and honours PLAYWRIGHT_BROWSERS_PATH', () => {
    const old = fakeBinary(join(home, '.cache/ms-playwright/chromium-1097/chrome-linux/chrome'));
    expect(locateChrome(env, none)).toEqual({ path: old, source: 'playwright cache' });
    const moved = fakeBinary(join(home, 'pw/chromium-1150/chrome-linux64/chrome'));
    expect(locateChrome({ ...env, PLAYWRIGHT_BROWSERS_PATH: join(home, 'pw') }, none)?.path).toBe(moved);
  });

  it("prefers Argus's own cache to the others, system paths to caches, CHROME_PATH to everything", () => {
    fakeBinary(join(home, '.cache/puppeteer/chrome/linux-131.0.6778.85/chrome-linux64/chrome'));
    const ours = fakeBinary(join(home, '.cache/argus/browsers/chrome/linux-130.0.6723.58/chrome-linux64/chrome'));
    expect(locateChrome(env, none)).toEqual({ path: ours, source: 'argus cache' });
    const system = fakeBinary(join(home, 'usr/bin/chromium'));
    expect(locateChrome(env, [system])).toEqual({ path: system, source: 'system' });
    const chosen = fakeBinary(join(home, 'my/chrome'));
    expect(locateChrome({ ...env, CHROME_PATH: chosen }, [system])).toEqual({ path: chosen, source: 'CHROME_PATH' });
  });

  it('ignores files that are not executable', () => {
    const path = join(home, '.cache/puppeteer/chrome/linux-131.0.6778.85/chrome-linux64/chrome');
    fakeBinary(path);
    chmodSync(path, 0o644);
    expect(locateChrome(env, none)).toBeUndefined();
  });
});

describe('installBrowser (argus install-browser)', () => {
  const quiet = () => {};

  it('installs nothing when a browser is found', async () => {
    const path = fakeBinary(join(home, '.cache/ms-playwright/chromium-1150/chrome-linux/chrome'));
    const result = await installBrowser({
      env,
      log: quiet,
      systemPaths: none,
      run: () => Promise.reject(new Error('must not run')),
    });
    expect(result).toEqual({ path, source: 'playwright cache', installed: false });
  });

  it('as root with apt: apt-get update, then install chromium; the new binary is found', async () => {
    const system = join(home, 'usr/lib/chromium/chromium');
    const commands: string[] = [];
    const result = await installBrowser({
      env,
      log: quiet,
      systemPaths: [system],
      asRoot: true,
      run: async (command, args) => {
        commands.push([command, ...args].join(' '));
        if (command === 'apt-get' && args[0] === 'install') fakeBinary(system);
        return args.join(' ').includes('dpkg-query') ? 1 : 0;
      },
    });
    expect(result).toEqual({ path: system, source: 'system', installed: true });
    expect(commands.slice(2)).toEqual(['apt-get update', 'apt-get install -y --no-install-recommends chromium']);
  });

  it('not root: downloads Chrome for Testing into the Argus cache, where the finder then looks', async () => {
    const lines: string[] = [];
    const result = await installBrowser({
      env,
      log: (line) => lines.push(line),
      systemPaths: none,
      asRoot: false,
      run: () => Promise.reject(new Error('no apt without root')),
      downloadChrome: async (cacheDir) =>
        fakeBinary(join(cacheDir, 'chrome/linux-131.0.6778.85/chrome-linux64/chrome')),
    });
    expect(result.installed).toBe(true);
    expect(locateChrome(env, none)).toEqual({ path: result.path, source: 'argus cache' });
    expect(lines.join('\n')).toMatch(/installing Chrome for Testing \(needs internet\)/);
  });

  it('when neither works: browser_not_found naming both failures and what to do', async () => {
    const failing = installBrowser({
      env,
      log: quiet,
      systemPaths: none,
      asRoot: true,
      run: async (command) => (command === 'sh' ? 0 : 100),
      downloadChrome: () => Promise.reject(new Error('getaddrinfo ENOTFOUND storage.example')),
    });
    await expect(failing).rejects.toThrow(ArgusError);
    await expect(failing).rejects.toThrow(
      /apt-get failed \(exit 100\).*Chrome for Testing download failed: getaddrinfo ENOTFOUND.*apt-get install -y chromium.*CHROME_PATH/,
    );
  });
});
