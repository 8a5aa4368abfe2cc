import { describe, expect, it } from 'vitest';
import { TabQueues } from './tab-queue.js';

/** A task that records when it starts and ends, and finishes only when told to. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('TabQueues', () => {
  it('runs at most maxParallel commands at once across tabs, and all of them', async () => {
    const queues = new TabQueues(3);
    let running = 0;
    let peak = 0;
    const gates = Array.from({ length: 12 }, gate);
    const done = gates.map((g, index) =>
      queues.run(`tab-${index}`, async () => {
        running++;
        peak = Math.max(peak, running);
        await g.opened;
        running--;
        return index;
      }),
    );
    await tick();
    expect(running).toBe(3);
    expect(queues.stats()).toEqual({ running: 3, waiting: 9, maxParallel: 3 });
    for (const g of gates) {
      g.open();
      await tick();
    }
    expect(await Promise.all(done)).toEqual(gates.map((_, index) => index));
    expect(peak).toBe(3);
    expect(queues.stats()).toEqual({ running: 0, waiting: 0, maxParallel: 3 });
  });

  it('keeps each tab FIFO under the cap and hands slots out in arrival order (a busy tab cannot starve another)', async () => {
    const queues = new TabQueues(1);
    const order: string[] = [];
    const first = gate();
    const runs = [
      queues.run('a', async () => {
        order.push('a1');
        await first.opened;
      }),
      queues.run('a', async () => void order.push('a2')),
      queues.run('a', async () => void order.push('a3')),
      queues.run('b', async () => void order.push('b1')),
      queues.run('b', async () => void order.push('b2')),
    ];
    await tick();
    expect(order).toEqual(['a1']);
    first.open();
    await Promise.all(runs);
    // b1 asked for the slot while a1 ran; a2 only asked once a1 was done
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
  });

  it('a failed command frees its slot and never blocks the ones behind it', async () => {
    const queues = new TabQueues(1);
    const failed = queues.run('a', async () => {
      throw new Error('boom');
    });
    const next = queues.run('b', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
    expect(queues.stats().running).toBe(0);
  });

  it('a run nested inside a running command does not wait for a slot (no deadlock at the cap)', async () => {
    const queues = new TabQueues(1);
    const result = await queues.run('__structure__', () => queues.run('tab-1', async () => 'inner'));
    expect(result).toBe('inner');
    // the slot is free again
    await expect(queues.run('tab-2', async () => 'after')).resolves.toBe('after');
  });

  it('refuses a cap below one', () => {
    expect(() => new TabQueues(0)).toThrow(RangeError);
  });
});
