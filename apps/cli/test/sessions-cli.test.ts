import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

describe('argus --session', () => {
  const cli = useCli('argus-sessions-');

  it('runs verbs in a named session (--session NAME or --session=NAME) whose cookies the default session never sees', async () => {
    const setCookie = cli.server.urlFor('/set-cookie?name=cart&value=3&max-age=3600');
    expect((await cli.argus('--session', 'shop', 'goto', setCookie)).code).toBe(0);
    const inShop = await cli.argus('cookies', '--session=shop', '--json');
    expect(inShop.code).toBe(0);
    expect((JSON.parse(inShop.stdout) as { cookies: Array<{ name: string }> }).cookies.map((c) => c.name)).toEqual([
      'cart',
    ]);
    expect((await cli.argus('goto', cli.server.urlFor('/styles.html'))).code).toBe(0);
    const inDefault = await cli.argus('cookies', '--json');
    expect((JSON.parse(inDefault.stdout) as { cookies: unknown[] }).cookies).toEqual([]);

    const listed = await cli.argus('--session', 'shop', 'sessions');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ {2}default {2}1 tab/m);
    expect(listed.stdout).toMatch(/^\* shop {5}1 tab {2}http:\/\/127\.0\.0\.1:\d+\/set-cookie/m);

    const closed = await cli.argus('session', 'close', 'shop');
    expect(closed.stdout).toContain('closed session shop (1 tab, its cookies and storage)');
    expect((await cli.argus('sessions')).stdout).not.toContain('shop');
  });

  it('says what is wrong with a bad name or a missing one', async () => {
    const bad = await cli.argus('--session', '../x', 'tabs');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('Bad session name');
    const missing = await cli.argus('tabs', '--session');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--session needs a name');
  });
});
