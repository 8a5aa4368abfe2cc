// The daemon re-reads its config files when they change (a stat of each per call, no watcher): an
// edit made while it runs applies to the very next command, a broken edit keeps the last good
// configuration, and a file that appears or goes is noticed. Files only, no browser.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../src/policy/config-store.js';

describe('ConfigStore picks up edits on the next call', () => {
  let root = '';
  let workspace = '';
  let env: NodeJS.ProcessEnv = {};
  const projectFile = () => join(workspace, '.argus', 'config.json');
  const userFile = () => join(root, 'xdg', 'argus', 'config.json');

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'argus-config-reload-'));
    workspace = join(root, 'ws');
    mkdirSync(join(workspace, '.argus'), { recursive: true });
    env = { XDG_CONFIG_HOME: join(root, 'xdg'), HOME: root };
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('applies a file that appears, changes (same size) and goes, each on the next read', () => {
    const store = new ConfigStore(workspace, env);
    expect(store.current().idleTimeoutMs).toBeUndefined();
    writeFileSync(projectFile(), JSON.stringify({ idleTimeoutMs: 1000 }));
    expect(store.current().idleTimeoutMs).toBe(1000);
    // the same number of bytes: only the modification time tells
    writeFileSync(projectFile(), JSON.stringify({ idleTimeoutMs: 2000 }));
    expect(store.current().idleTimeoutMs).toBe(2000);
    mkdirSync(join(root, 'xdg', 'argus'), { recursive: true });
    writeFileSync(userFile(), JSON.stringify({ captureCapacity: 77 }));
    expect(store.current().captureCapacity).toBe(77);
    rmSync(projectFile());
    expect(store.current().idleTimeoutMs).toBeUndefined();
    expect(store.current().captureCapacity).toBe(77);
  });

  it('keeps the last good configuration when an edit breaks the file', () => {
    writeFileSync(projectFile(), JSON.stringify({ idleTimeoutMs: 1000 }));
    const store = new ConfigStore(workspace, env);
    expect(store.current().idleTimeoutMs).toBe(1000);
    writeFileSync(projectFile(), '{"idleTimeoutMs": "soon"');
    expect(store.current().idleTimeoutMs).toBe(1000);
    writeFileSync(projectFile(), JSON.stringify({ idleTimeoutMs: 3000 }));
    expect(store.current().idleTimeoutMs).toBe(3000);
  });
});
