import { describe, expect, it } from 'vitest';
import { AGENT_POLICY, OPERATOR_POLICY, createRequestChecker } from '../src/index.js';

/** A resolver that answers from a table and counts what it was asked. */
function tableResolver(table: Record<string, string[]>, delayMs = 0) {
  const asked: string[] = [];
  const resolver = async (host: string): Promise<readonly string[]> => {
    asked.push(host);
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const answer = table[host];
    if (!answer) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return { resolver, asked };
}

describe('request checker (sub-resources of a rendered page)', () => {
  it('refuses loopback, private, link-local, metadata and IPv4-mapped targets for agents, by literal or by name', async () => {
    const { resolver } = tableResolver({ 'public.example': ['93.184.216.34'], 'inside.example': ['10.1.2.3'] });
    const { check } = createRequestChecker(AGENT_POLICY, { resolver });
    expect(await check('https://public.example/a.png')).toBeUndefined();
    expect(await check('http://127.0.0.1:8080/secret')).toMatch(/loopback/);
    expect(await check('http://10.0.0.5/')).toMatch(/private/);
    expect(await check('http://169.254.169.254/latest/meta-data/')).toMatch(/metadata/);
    expect(await check('http://[::ffff:127.0.0.1]/')).toMatch(/loopback/);
    expect(await check('ws://inside.example/socket')).toMatch(/inside\.example resolves to .*private/);
    expect(await check('ftp://public.example/file')).toMatch(/ftp: requests are not allowed/);
    // nothing to dial
    expect(await check('data:image/png;base64,AAAA')).toBeUndefined();
    expect(await check('blob:https://public.example/1234')).toBeUndefined();
  });

  it('resolves each host once per checker and refuses a host that does not resolve or not in time', async () => {
    const { resolver, asked } = tableResolver({ 'public.example': ['93.184.216.34'] }, 20);
    const { check } = createRequestChecker(AGENT_POLICY, { resolver, lookupTimeoutMs: 5 });
    expect(await check('https://PUBLIC.example/a.png')).toMatch(/did not resolve within 5 ms/);
    const slowButFine = createRequestChecker(AGENT_POLICY, { resolver, lookupTimeoutMs: 1_000 }).check;
    const verdicts = await Promise.all(
      ['/1.png', '/2.js', '/3.css', '/api'].map((path) => slowButFine(`https://public.example${path}`)),
    );
    expect(verdicts).toEqual([undefined, undefined, undefined, undefined]);
    expect(await slowButFine('https://nowhere.example/')).toBe('nowhere.example does not resolve');
    expect(asked.filter((host) => host === 'public.example')).toHaveLength(2); // one per checker
  });

  it("the operator's policy dials local servers without a lookup, and the domain policy holds for everyone", async () => {
    const { resolver, asked } = tableResolver({});
    const { check } = createRequestChecker(
      { ...OPERATOR_POLICY, allowUrl: (url) => (url.includes('tracker') ? 'tracker.example is denied' : undefined) },
      { resolver },
    );
    expect(await check('http://127.0.0.1:3000/api')).toBeUndefined();
    expect(await check('http://localhost:3000/api')).toBeUndefined();
    expect(await check('https://tracker.example/pixel.gif')).toBe('tracker.example is denied');
    expect(asked).toEqual([]);
  });

  it('tells hosts in a range the operator opened from public ones (the policy resolver answers)', async () => {
    const { resolver } = tableResolver({ 'wiki.intranet': ['10.1.2.3'], 'public.example': ['93.184.216.34'] });
    const checker = createRequestChecker({ ...AGENT_POLICY, openRanges: ['10.1.0.0/16'], resolve: resolver });
    expect(await checker.check('http://wiki.intranet/page')).toBeUndefined();
    expect(await checker.opened('http://wiki.intranet/page')).toBe(true);
    expect(await checker.opened('http://10.1.9.9/')).toBe(true);
    expect(await checker.opened('https://public.example/')).toBe(false);
    expect(await checker.check('http://10.2.0.1/')).toMatch(/private/);
  });
});
