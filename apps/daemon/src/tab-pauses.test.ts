import { describe, expect, it } from 'vitest';
import { TabPauses } from './tab-pauses.js';

describe('TabPauses', () => {
  it('lets commands through an unpaused tab, holds them on a paused one until resumed', async () => {
    const pauses = new TabPauses();
    await pauses.admit('t1', undefined, 10);
    pauses.set('t1', true);
    expect(pauses.list().map((pause) => pause.tab)).toEqual(['t1']);
    let through = false;
    const held = pauses.admit('t1', undefined, 60_000).then(() => (through = true));
    await Promise.resolve();
    expect(through).toBe(false);
    await pauses.admit('t2', undefined, 10);
    pauses.set('t1', false);
    await held;
    expect(pauses.list()).toEqual([]);
  });

  it('fails with tab_paused when the wait runs out, and cancelled when the caller leaves', async () => {
    const pauses = new TabPauses();
    pauses.set('t1', true);
    await expect(pauses.admit('t1', undefined, 20)).rejects.toMatchObject({ code: 'tab_paused' });
    const caller = new AbortController();
    const waiting = pauses.admit('t1', caller.signal, 60_000);
    caller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
    expect(pauses.endAll()).toEqual(['t1']);
    await pauses.admit('t1', undefined, 10);
  });

  it('ends every pause when the extension goes away; the waiting commands fail saying so', async () => {
    const pauses = new TabPauses();
    pauses.set('t1', true);
    pauses.set('t2', true);
    const waiting = pauses.admit('t1', undefined, 60_000);
    expect(pauses.endAll().sort()).toEqual(['t1', 't2']);
    await expect(waiting).rejects.toMatchObject({
      code: 'browser_not_found',
      message: expect.stringContaining('extension disconnected'),
      details: { tab: 't1', reason: 'extension_disconnected' },
    });
    expect(pauses.list()).toEqual([]);
    await pauses.admit('t2', undefined, 10);
  });
});
