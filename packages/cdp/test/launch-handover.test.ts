// The daemon adopts a browser its starter describes in ARGUS_HANDED_CHROME. A description that does
// not match a running Chrome with that profile (a stray or hostile variable) is dropped without
// signalling anyone: the process it names keeps running.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HANDED_CHROME_ENV, adoptHandedChrome } from '../src/launch-handover.js';

describe('adoptHandedChrome', () => {
  it('drops a description naming a process that is not that Chrome, and signals nothing', async () => {
    const bystander = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    try {
      const env: NodeJS.ProcessEnv = {
        [HANDED_CHROME_ENV]: JSON.stringify({
          pid: bystander.pid,
          userDataDir: '/tmp/argus-chrome-not-this-one',
          executablePath: '/usr/bin/chromium',
          key: '[]',
        }),
      };
      expect(adoptHandedChrome(env)).toBe(false);
      expect(env[HANDED_CHROME_ENV]).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(bystander.exitCode).toBeNull();
      expect(() => process.kill(bystander.pid!, 0)).not.toThrow();
    } finally {
      bystander.kill('SIGKILL');
    }
  });

  it('ignores a malformed description', () => {
    const env: NodeJS.ProcessEnv = { [HANDED_CHROME_ENV]: '{"pid": 1' };
    expect(adoptHandedChrome(env)).toBe(false);
    expect(env[HANDED_CHROME_ENV]).toBeUndefined();
    expect(adoptHandedChrome({ [HANDED_CHROME_ENV]: JSON.stringify({ pid: 1, userDataDir: 'x' }) })).toBe(false);
  });
});
