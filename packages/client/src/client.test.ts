import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArgusError } from '@argus/protocol/errors';
import { describe, expect, it } from 'vitest';
import { connectToDaemon } from './connect.js';
import { toArgusError } from './errors.js';
import { findWorkspace, readState, stateDirFor } from './state.js';

describe('daemon discovery', () => {
  const root = mkdtempSync(join(tmpdir(), 'argus-client-'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'a', 'b'), { recursive: true });

  it('uses the git top-level as the workspace and .argus under it as the state dir', () => {
    expect(findWorkspace(join(root, 'a', 'b'))).toBe(root);
    expect(stateDirFor(join(root, 'a'), {})).toBe(join(root, '.argus'));
    expect(stateDirFor(root, { ARGUS_STATE_DIR: '/tmp/elsewhere' })).toBe('/tmp/elsewhere');
  });

  it('reads only well-formed state files', () => {
    const dir = join(root, 'state');
    mkdirSync(dir);
    expect(readState(dir)).toBeUndefined();
    writeFileSync(join(dir, 'daemon.json'), '{"port": "x"}');
    expect(readState(dir)).toBeUndefined();
    writeFileSync(
      join(dir, 'daemon.json'),
      JSON.stringify({ port: 1, pid: 2, token: 't', version: '0', workspace: root, startedAt: '' }),
    );
    expect(readState(dir)).toMatchObject({ port: 1, pid: 2, token: 't' });
  });

  it('reports daemon_unreachable when no daemon runs and auto-start is off', async () => {
    const dir = join(root, 'empty');
    await expect(connectToDaemon({ stateDir: dir })).rejects.toMatchObject({ code: 'daemon_unreachable' });
    // a state file naming a dead process is treated the same way
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'daemon.json'),
      JSON.stringify({ port: 1, pid: 2 ** 22 + 7, token: 't', version: '0', workspace: root, startedAt: '' }),
    );
    await expect(connectToDaemon({ stateDir: dir })).rejects.toMatchObject({ code: 'daemon_unreachable' });
  });
});

describe('toArgusError', () => {
  it('rebuilds contract errors from the tRPC error shape', () => {
    const error = toArgusError({ message: 'x', data: { argus: { code: 'ref_stale', message: 'Ref e1 is stale' } } });
    expect(error).toBeInstanceOf(ArgusError);
    expect(error).toMatchObject({ code: 'ref_stale', message: 'Ref e1 is stale' });
  });
  it('maps connection failures to daemon_unreachable and the rest to internal', () => {
    expect(toArgusError({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } }).code).toBe('daemon_unreachable');
    // reached the daemon, then lost it: never retried
    expect(toArgusError({ message: 'socket hang up', cause: { code: 'ARGUS_DAEMON_LOST' } }).code).toBe('daemon_lost');
    expect(toArgusError(new Error('weird')).code).toBe('internal');
    const original = new ArgusError('timeout', 't');
    expect(toArgusError(original)).toBe(original);
  });
});
