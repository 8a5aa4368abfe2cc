import { describe, expect, it } from 'vitest';
import { asyncSlot } from './async-slots.js';

describe('asyncSlot', () => {
  const a = asyncSlot<string>('a');
  const b = asyncSlot<number>('b');
  const later = () => new Promise((resolve) => setTimeout(resolve, 1));

  it('carries each slot through awaits and timers, nested runs keeping the other slots', async () => {
    expect(a.get()).toBeUndefined();
    await a.run('outer', async () => {
      await later();
      expect(a.get()).toBe('outer');
      await b.run(2, async () => {
        await later();
        expect([a.get(), b.get()]).toEqual(['outer', 2]);
        await a.run('inner', async () => {
          await later();
          expect([a.get(), b.get()]).toEqual(['inner', 2]);
        });
        expect([a.get(), b.get()]).toEqual(['outer', 2]);
      });
      expect(b.get()).toBeUndefined();
    });
    expect(a.get()).toBeUndefined();
  });

  it('exit empties its own slot only, for what it starts', async () => {
    await a.run('set', () =>
      b.run(7, async () => {
        const seen = await a.exit(async () => {
          await later();
          return [a.get(), b.get()];
        });
        expect(seen).toEqual([undefined, 7]);
        expect(a.get()).toBe('set');
      }),
    );
  });

  it('keeps concurrent runs apart', async () => {
    const read = (value: string) =>
      a.run(value, async () => {
        await later();
        return a.get();
      });
    expect(await Promise.all([read('x'), read('y'), read('z')])).toEqual(['x', 'y', 'z']);
  });
});
