import { describe, expect, it } from 'vitest';
import { afterReply, runAfterReply } from './after-reply.js';

describe('afterReply', () => {
  it('runs once the turn’s promise chains (a reply being sent) are done, in order, all in one callback', async () => {
    const seen: string[] = [];
    // a reply goes out at the end of a chain of awaits, as the router's result travels to the transport
    const reply = (async () => {
      afterReply(() => seen.push('row 1'));
      await null;
      afterReply(() => seen.push('row 2'));
      for (let i = 0; i < 20; i++) await null;
      seen.push('reply sent');
    })();
    await reply;
    expect(seen).toEqual(['reply sent']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['reply sent', 'row 1', 'row 2']);
  });

  it('a task that throws loses only its own record; runAfterReply runs what is queued at once', () => {
    const seen: string[] = [];
    afterReply(() => {
      throw new Error('broken observer');
    });
    afterReply(() => seen.push('kept'));
    // a task queued by a task runs in the same drain
    afterReply(() => afterReply(() => seen.push('nested')));
    runAfterReply();
    expect(seen).toEqual(['kept', 'nested']);
    runAfterReply();
    expect(seen).toEqual(['kept', 'nested']);
  });
});
