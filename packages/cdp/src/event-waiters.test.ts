import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventWaiters, NavigationTimeoutError } from './event-waiters.js';
import { TransportClosedError } from './transport.js';

/** A tab's session reduced to what a wait needs: its detach. */
function fakeSession() {
  const listeners = new Set<() => void>();
  return {
    onDetach(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    detach() {
      for (const listener of [...listeners]) listener();
    },
    get listening() {
      return listeners.size;
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('EventWaiters', () => {
  it('checks only when told of an event, and forgets a wait once it holds', async () => {
    const waiters = new EventWaiters(fakeSession());
    let state = false;
    const check = vi.fn(() => state);
    const waiting = waiters.until(check, 1_000, () => 'The thing');
    expect(check).toHaveBeenCalledTimes(1);
    waiters.notify();
    expect(check).toHaveBeenCalledTimes(2);
    state = true;
    waiters.notify();
    await waiting;
    waiters.notify();
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('fails at its timeout with the description, read then', async () => {
    vi.useFakeTimers();
    const session = fakeSession();
    const waiters = new EventWaiters(session);
    let what = 'The early step';
    const waiting = waiters.until(
      () => false,
      500,
      () => what,
    );
    what = 'The next document';
    const outcome = waiting.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(500);
    const error = await outcome;
    expect(error).toBeInstanceOf(NavigationTimeoutError);
    expect((error as NavigationTimeoutError).message).toBe('The next document did not finish within 500 ms');
    expect(session.listening).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails when the tab closes, and when the caller aborts', async () => {
    const session = fakeSession();
    const waiters = new EventWaiters(session);
    const closed = waiters
      .until(
        () => false,
        60_000,
        () => 'x',
      )
      .catch((error: unknown) => error);
    session.detach();
    const closeError = await closed;
    expect(closeError).toBeInstanceOf(TransportClosedError);
    expect((closeError as Error).message).toBe('The tab closed during navigation');

    const controller = new AbortController();
    const aborted = waiters
      .until(
        () => false,
        60_000,
        () => 'x',
        controller.signal,
      )
      .catch((error: unknown) => error);
    const reason = new Error('caller gone');
    controller.abort(reason);
    expect(await aborted).toBe(reason);

    const already = new AbortController();
    already.abort('not an error');
    const before = waiters
      .until(
        () => false,
        60_000,
        () => 'x',
        already.signal,
      )
      .catch((error: unknown) => error);
    expect(((await before) as Error).message).toBe('aborted');
    expect(session.listening).toBe(0);
  });
});
