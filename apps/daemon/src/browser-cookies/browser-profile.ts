/**
 * Where a user's own Chrome-family browser keeps its cookies, and the password its cookies are
 * encrypted with (asked from the desktop keyring or the macOS Keychain through their command-line
 * tools, with a bound, never from a prompt the user does not see).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ArgusError } from '@argus/protocol';
import { type CookieKey, deriveKey, linuxFallbackKeys } from './cookie-crypto.js';

const run = promisify(execFile);

export const BROWSERS = ['chrome', 'chromium', 'brave', 'edge'] as const;
export type BrowserKind = (typeof BROWSERS)[number];

interface BrowserInfo {
  linuxDir: string;
  macDir: string;
  /** The keyring's `application` attribute (Linux) and the Keychain service (macOS). */
  keyringApp: string;
  keychainService: string;
}

const INFO: Record<BrowserKind, BrowserInfo> = {
  chrome: {
    linuxDir: 'google-chrome',
    macDir: 'Google/Chrome',
    keyringApp: 'chrome',
    keychainService: 'Chrome Safe Storage',
  },
  chromium: {
    linuxDir: 'chromium',
    macDir: 'Chromium',
    keyringApp: 'chromium',
    keychainService: 'Chromium Safe Storage',
  },
  brave: {
    linuxDir: 'BraveSoftware/Brave-Browser',
    macDir: 'BraveSoftware/Brave-Browser',
    keyringApp: 'brave',
    keychainService: 'Brave Safe Storage',
  },
  edge: {
    linuxDir: 'microsoft-edge',
    macDir: 'Microsoft Edge',
    keyringApp: 'chromium',
    keychainService: 'Microsoft Edge Safe Storage',
  },
};

function configRoot(): string {
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Application Support');
  return process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
}

/** The user-data dir of `browser`, or, with none named, of the first installed one. */
export function userDataDir(browser: BrowserKind | undefined): { dir: string; browser: BrowserKind } {
  const mac = platform() === 'darwin';
  if (platform() !== 'linux' && !mac) {
    throw new ArgusError(
      'unsupported',
      `Reading browser cookies is supported on Linux and macOS; this is ${platform()}. Export cookies to JSON with a browser extension and use \`argus cookie-import FILE\`.`,
    );
  }
  const kinds = browser ? [browser] : BROWSERS;
  for (const kind of kinds) {
    const dir = join(configRoot(), mac ? INFO[kind].macDir : INFO[kind].linuxDir);
    if (existsSync(dir)) return { dir, browser: kind };
  }
  const looked = kinds.map((kind) => join(configRoot(), mac ? INFO[kind].macDir : INFO[kind].linuxDir));
  throw new ArgusError(
    'browser_profile_not_found',
    `No browser profile found (looked in ${looked.join(', ')}). Pass --browser, or --user-data-dir for a profile elsewhere.`,
  );
}

/** The cookie database of `profile` in a user-data dir: `Network/Cookies` (Chrome 96+) or `Cookies`. */
export function cookieDatabase(dir: string, profile: string): string {
  if (!/^[\w .-]{1,64}$/.test(profile) || profile.startsWith('.')) {
    throw new ArgusError(
      'invalid_input',
      `Bad profile directory name "${profile.slice(0, 80)}": use e.g. Default or "Profile 1".`,
    );
  }
  for (const candidate of [join(dir, profile, 'Network', 'Cookies'), join(dir, profile, 'Cookies')]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new ArgusError(
    'browser_profile_not_found',
    `No cookie database in ${join(dir, profile)} (looked for Network/Cookies and Cookies). Pass --profile with the profile's directory name (Default, "Profile 1", ...).`,
  );
}

/** Asks a command-line secret store for the password; undefined when the tool or the entry is absent. */
async function secret(command: string, args: string[]): Promise<string | undefined> {
  try {
    const { stdout } = await run(command, args, { timeout: 10_000, maxBuffer: 64 * 1024 });
    const value = stdout.replace(/\r?\n$/, '');
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

/** The key the secret store holds for one browser, or a note saying why there is none. */
async function storedKey(browser: BrowserKind): Promise<CookieKey | string> {
  const info = INFO[browser];
  if (platform() === 'darwin') {
    const password = await secret('security', ['find-generic-password', '-w', '-s', info.keychainService]);
    return password
      ? { version: 'v10', key: deriveKey(password, 1003), source: 'the Keychain' }
      : `the Keychain did not give "${info.keychainService}" (allow access when macOS asks, then run it again)`;
  }
  const password = await secret('secret-tool', ['lookup', 'application', info.keyringApp]);
  return password
    ? { version: 'v11', key: deriveKey(password, 1), source: 'the desktop keyring' }
    : 'no keyring password (v11 cookies need `secret-tool` from libsecret-tools and an unlocked keyring)';
}

/**
 * Every key the browsers may have used, most likely first: each one's stored key, then (Linux) the
 * fixed fallback keys once. `notes` say why the first browser's stored key could not be had.
 */
export async function cookieKeys(browsers: readonly BrowserKind[]): Promise<{ keys: CookieKey[]; notes: string[] }> {
  const keys: CookieKey[] = [];
  const notes: string[] = [];
  for (const [index, browser] of browsers.entries()) {
    const found = await storedKey(browser);
    if (typeof found !== 'string') keys.push(found);
    else if (index === 0) notes.push(found);
  }
  return { keys: platform() === 'darwin' ? keys : [...keys, ...linuxFallbackKeys()], notes };
}
