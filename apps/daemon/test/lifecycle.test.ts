import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_CHROME_FLAGS, startHarness } from './harness.js';

describe('stopping the daemon closes Chrome gracefully', () => {
  it('a persistent cookie in a fixed profile survives stop and start', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'argus-fixed-profile-'));
    // Chromium takes the last --user-data-dir: this one replaces the daemon's temp profile
    const env = { ARGUS_CHROME_FLAGS: `${TEST_CHROME_FLAGS} --user-data-dir=${profile}` };
    try {
      const first = await startHarness(env);
      try {
        await first.client.page.goto.mutate({
          url: first.server.urlFor('/set-cookie?name=login&value=kept&max-age=86400'),
        });
        expect((await first.client.page.eval.mutate({ js: 'document.cookie' })).value).toBe('login=kept');
      } finally {
        // the daemon's stop: Browser.close, then wait for Chrome to exit (it writes the cookie store)
        await first.close();
      }
      const second = await startHarness(env);
      try {
        await second.client.page.goto.mutate({ url: second.server.urlFor('/nav-a.html') });
        // cookies are per host, not per port: the new fixture server sees the old cookie
        expect((await second.client.page.eval.mutate({ js: 'document.cookie' })).value).toBe('login=kept');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
