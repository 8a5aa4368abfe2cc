import { listCommands } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { drivesBrowser, prestartDaemonEnv, prestartMode } from './prestart.js';

/** Domains none of whose commands start a browser (each one's exceptions are in drivesBrowser's list). */
const WITHOUT_BROWSER = [
  'approvals',
  'canvas',
  'cdp',
  'config',
  'daemon',
  'inbox',
  'journal',
  'profile',
  'session',
  'sessions',
  'skill',
  'token',
  'watch',
  'web',
];

describe('what an MCP server prestarts', () => {
  it('reads ARGUS_PRELAUNCH', () => {
    expect(prestartMode({})).toBe('daemon');
    expect(prestartMode({ ARGUS_PRELAUNCH: '0' })).toBe('off');
    expect(prestartMode({ ARGUS_PRELAUNCH: ' browser ' })).toBe('browser');
    expect(prestartDaemonEnv('daemon')).toEqual({ ARGUS_PRELAUNCH: '0' });
    expect(prestartDaemonEnv('browser')).toEqual({});
  });

  it('cues a browser launch for the commands that drive a page, and no other', () => {
    for (const name of ['page.goto', 'snapshot.take', 'input.click', 'tabs.list', 'batch.run', 'skill.run'])
      expect(drivesBrowser(name), name).toBe(true);
    for (const name of ['inbox.annotate', 'canvas.open', 'canvas.nodeOf', 'watch.open'])
      expect(drivesBrowser(name), name).toBe(true);
    for (const name of ['web.fetch', 'web.research', 'inbox.consume', 'canvas.patch', 'journal.list', 'skill.list'])
      expect(drivesBrowser(name), name).toBe(false);
  });

  it('knows every domain of the manifest (a new one is classified when it is added)', () => {
    const domains = new Set(listCommands().map((command) => command.name.split('.')[0]!));
    const classified = [...domains].filter(
      (domain) =>
        WITHOUT_BROWSER.includes(domain) ||
        listCommands().some((c) => c.name.startsWith(`${domain}.`) && drivesBrowser(c.name)),
    );
    expect(classified.sort()).toEqual([...domains].sort());
  });
});
