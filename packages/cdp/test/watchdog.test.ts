import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { liveProcesses, processGroupMembers, waitUntil } from '@argus/test-kit';
import { launchChrome } from '../src/index.js';

/** The built package: the owner process below is plain Node, it cannot load TypeScript sources. */
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'index.js');

/** Live (non-zombie) processes whose command line contains `needle`. */
const processesWith = (needle: string): number[] =>
  liveProcesses()
    .filter((proc) => proc.args.join(' ').includes(needle))
    .map((proc) => proc.pid);

/** Chrome processes (browser, zygotes, renderers, utilities) of one profile. */
const chromeOf = (profile: string): number[] => processesWith(`--user-data-dir=${profile}`);
/** The watchdog guarding one profile. */
const watchdogOf = (profile: string): number[] =>
  liveProcesses()
    .filter((proc) => proc.args.join(' ').includes('argus-watchdog') && proc.args.join(' ').includes(profile))
    .map((proc) => proc.pid);

/** A Node process that launches Chrome like the daemon does, reports it, then idles until killed. */
async function startOwner(): Promise<{ pid: number; chromePid: number; profile: string }> {
  const script = `
    const { launchChrome } = await import(${JSON.stringify(DIST)});
    const chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9'] });
    process.stdout.write(JSON.stringify({ chromePid: chrome.pid, profile: chrome.userDataDir }) + '\\n');
    setInterval(() => {}, 60_000);
  `;
  const owner = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    owner.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
    });
    owner.once('exit', (code) => reject(new Error(`the owner process exited early (code ${code})`)));
  });
  const { chromePid, profile } = JSON.parse(line) as { chromePid: number; profile: string };
  if (owner.pid === undefined) throw new Error('no owner pid');
  return { pid: owner.pid, chromePid, profile };
}

describe('Chrome dies with the process that launched it', () => {
  it('SIGKILL of the owner: the watchdog kills the whole Chrome process group and removes its profile', async () => {
    const owner = await startOwner();
    // Chrome and its helpers (zygote, renderers, utilities) all carry the profile flag
    // Chrome leads its own process group: the browser plus its zygotes and utilities
    expect(processGroupMembers(owner.chromePid).length).toBeGreaterThan(1);
    expect(chromeOf(owner.profile).length).toBeGreaterThan(0);
    expect(existsSync(owner.profile)).toBe(true);
    expect(watchdogOf(owner.profile)).toHaveLength(1);

    process.kill(owner.pid, 'SIGKILL');

    await waitUntil(
      () => processGroupMembers(owner.chromePid).length === 0,
      15_000,
      "Chrome's process group to be gone",
    );
    expect(chromeOf(owner.profile)).toEqual([]);
    await waitUntil(() => !existsSync(owner.profile), 15_000, 'the temp profile to be removed');
    // the watchdog itself is gone too
    await waitUntil(() => watchdogOf(owner.profile).length === 0, 5_000, 'the watchdog to exit');
  });

  it('a normal kill() stands the watchdog down: no Chrome, no profile, no watchdog left', async () => {
    const chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9'] });
    const profile = chrome.userDataDir;
    expect(watchdogOf(profile)).toHaveLength(1);
    expect(processGroupMembers(chrome.pid).length).toBeGreaterThan(1);
    await chrome.kill();
    expect(processGroupMembers(chrome.pid)).toEqual([]);
    expect(chromeOf(profile)).toEqual([]);
    expect(existsSync(profile)).toBe(false);
    // told `closed`, the watchdog exits without touching anything
    await waitUntil(() => watchdogOf(profile).length === 0, 5_000, 'the watchdog to exit');
  });
});
