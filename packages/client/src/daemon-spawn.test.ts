import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { isArgusError } from '@argus/protocol/errors';
import { describe, expect, it } from 'vitest';
import { type EarlyStart, adoptEarlyStart, handEarlyStart, takeEarlyStart } from './daemon-spawn.js';

/** An ArgusError as another bundle's copy of the class makes it: same shape, another class. */
class ForeignArgusError extends Error {
  override readonly name = 'ArgusError';
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

function startWith(ready: Promise<never>, stateDir = '/tmp/argus-state'): EarlyStart {
  ready.catch(() => undefined);
  return { stateDir, child: new EventEmitter() as unknown as ChildProcess, ready };
}

describe('an early daemon start handed between two copies of daemon-spawn (the CLI boot and its bundle)', () => {
  it('is taken by the connection for its own state dir only, once', () => {
    expect(handEarlyStart()).toBeUndefined();
    const start = startWith(new Promise<never>(() => undefined));
    adoptEarlyStart(start);
    expect(takeEarlyStart('/elsewhere')).toBeUndefined();
    expect(takeEarlyStart('/tmp/argus-state')).toBeInstanceOf(Promise);
    expect(takeEarlyStart('/tmp/argus-state')).toBeUndefined();
  });

  it("reports the other copy's ArgusError as this copy's, code and details kept; other errors as they are", async () => {
    adoptEarlyStart(
      startWith(
        Promise.reject(
          new ForeignArgusError('daemon_unreachable', 'The daemon exited during start-up (code 1).', { code: 1 }),
        ),
      ),
    );
    const error = await takeEarlyStart('/tmp/argus-state')!.catch((caught: unknown) => caught);
    expect(isArgusError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'daemon_unreachable',
      message: 'The daemon exited during start-up (code 1).',
      details: { code: 1 },
    });

    const plain = new Error('spawn EACCES');
    adoptEarlyStart(startWith(Promise.reject(plain)));
    await expect(takeEarlyStart('/tmp/argus-state')).rejects.toBe(plain);

    // a name alone, with no known code, is not an ArgusError
    const odd = new ForeignArgusError('no_such_code', 'odd');
    adoptEarlyStart(startWith(Promise.reject(odd)));
    await expect(takeEarlyStart('/tmp/argus-state')).rejects.toBe(odd);
  });
});
