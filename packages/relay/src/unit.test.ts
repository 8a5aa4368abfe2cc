import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LeaseQueue } from './lease.js';
import { PairingRegistry } from './pairing.js';
import { ResultCache } from './result-cache.js';

describe('LeaseQueue', () => {
  it('grants in FIFO order and passes the lease on release', () => {
    const leases = new LeaseQueue();
    const granted: string[] = [];
    const a = leases.acquire('tab', () => granted.push('a'));
    const b = leases.acquire('tab', () => granted.push('b'));
    const c = leases.acquire('tab', () => granted.push('c'));
    expect([a.position, b.position, c.position]).toEqual([0, 1, 2]);
    expect(granted).toEqual(['a']);
    b.release(); // leaving the queue while waiting grants nothing
    expect(granted).toEqual(['a']);
    a.release();
    expect(granted).toEqual(['a', 'c']);
    expect(leases.acquire('other', () => granted.push('d')).position).toBe(0);
  });
});

describe('ResultCache', () => {
  it('is bounded and evicts the oldest', () => {
    const cache = new ResultCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });
});

describe('PairingRegistry', () => {
  it('approves a matching launch token at once and refuses a wrong one', () => {
    const registry = new PairingRegistry('launch-secret', undefined);
    const outcome = registry.request({ nodeId: 'node-00000001', launchToken: 'launch-secret' });
    expect(outcome.status).toBe('approved');
    if (outcome.status !== 'approved') return;
    expect(registry.verify('node-00000001', outcome.pairingToken)).toBe(true);
    expect(registry.verify('node-00000002', outcome.pairingToken)).toBe(false);
    expect(() => registry.request({ nodeId: 'node-00000003', launchToken: 'guess' })).toThrow('bad_launch_token');
  });

  it('waits for the operator to approve the short code, then hands the token on the next poll', () => {
    const registry = new PairingRegistry(undefined, undefined);
    const first = registry.request({ nodeId: 'node-00000001' });
    if (first.status !== 'pending') throw new Error('expected pending');
    expect(first.request.code).toMatch(/^[A-Z2-9]{3}-[A-Z2-9]{3}$/);
    expect(registry.request({ nodeId: 'node-00000001', requestId: first.request.requestId }).status).toBe('pending');
    expect(registry.approve('nope-00')).toBe(false);
    expect(registry.approve(first.request.code.toLowerCase())).toBe(true);
    const polled = registry.request({ nodeId: 'node-00000001', requestId: first.request.requestId });
    expect(polled.status).toBe('approved');
    if (polled.status === 'approved') expect(registry.verify('node-00000001', polled.pairingToken)).toBe(true);
    expect(registry.list()).toEqual([]);
  });

  it('keeps pending requests in pools by origin: a flood from scripts or another extension leaves room for the extension', () => {
    const registry = new PairingRegistry(undefined, undefined);
    const extension = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
    const other = 'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba';
    const refused: string[] = [];
    for (let i = 0; i < 20; i++) {
      for (const origin of [undefined, other]) {
        try {
          registry.request({ nodeId: `flood-node-${i}`, origin });
        } catch (error) {
          refused.push(`${origin ?? 'local'}:${(error as Error).message}`);
        }
      }
    }
    expect(refused.filter((r) => r.startsWith('local:pool_full'))).toHaveLength(16); // 4 local slots
    expect(refused.filter((r) => r.startsWith(`${other}:pool_full`))).toHaveLength(18); // 2 per extension origin
    const real = registry.request({ nodeId: 'real-node-0001', origin: extension });
    expect(real.status).toBe('pending');
    if (real.status !== 'pending') return;
    expect(real.request.fingerprint).toMatch(/^[0-9A-F]{4}:[0-9A-F]{4}:[0-9A-F]{4}$/);
    // a local process cannot poll or take over the extension's request by reusing its node id and
    // request id: it lands in its own (full) pool instead
    expect(() => registry.request({ nodeId: 'real-node-0001', requestId: real.request.requestId })).toThrow(
      'pool_full',
    );
    expect(registry.list().find((request) => request.origin === extension)).toMatchObject({
      origin: extension,
      nodeId: 'real-node-0001',
    });
    expect(registry.approve(real.request.code)).toBe(true);
    expect(
      registry.request({ nodeId: 'real-node-0001', requestId: real.request.requestId, origin: extension }).status,
    ).toBe('approved');
  });

  it('persists only token hashes, mode 0600, and reloads them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'argus-relay-test-'));
    try {
      const file = join(dir, 'state', 'pairings.json');
      const outcome = new PairingRegistry('t', file).request({ nodeId: 'node-00000001', launchToken: 't' });
      if (outcome.status !== 'approved') throw new Error('expected approval');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(new PairingRegistry(undefined, file).verify('node-00000001', outcome.pairingToken)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
