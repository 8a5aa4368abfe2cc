import { describe, expect, it } from 'vitest';
import { ATTACHED_WINDOW_MS, CallerLog } from './caller-log.js';

describe('CallerLog: who keeps the daemon running when an agent leaves', () => {
  it('counts a client that called lately, or holds a stream open, other than the one asking', () => {
    const log = new CallerLog();
    const now = Date.now();
    log.seen('agent-a');
    log.seen('cli');
    expect(log.others('agent-a')).toEqual(['cli']);
    expect(log.others('agent-b', now + ATTACHED_WINDOW_MS + 1)).toEqual([]);
    const release = log.streamOpened('watcher');
    expect(log.others('agent-a', now + ATTACHED_WINDOW_MS + 1)).toEqual(['watcher']);
    release();
    expect(log.others('agent-a')).toEqual(['cli', 'watcher']);
  });

  it('forgets a client that said it leaves, even when its stream ends afterwards', () => {
    const log = new CallerLog();
    const release = log.streamOpened('agent-a');
    log.seen('agent-b');
    log.left('agent-a');
    expect(log.others('agent-b')).toEqual(['agent-a']); // its stream is still open
    release(); // the server's process exits after asking: the end of its stream is not use
    expect(log.others('agent-b')).toEqual([]);
  });

  it('counts a client that calls again after saying it leaves', () => {
    const log = new CallerLog();
    log.seen('agent-a');
    log.left('agent-a');
    expect(log.others('agent-b')).toEqual([]);
    log.seen('agent-a');
    expect(log.others('agent-b')).toEqual(['agent-a']);
  });
});
