import { mkdtempSync, rmSync, writeFileSync, mkdirSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_ENV, configKeys, loadConfig, parseConfigValue, quickStateDir, writeConfigFile } from './config.js';

const dirs: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'argus-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('config layers', () => {
  it('user < project < env < flags, objects merged key by key', () => {
    const xdg = temp();
    const workspace = temp();
    writeConfigFile(join(xdg, 'argus', 'config.json'), {
      chrome: { headless: false, flags: ['--a'] },
      idleTimeoutMs: 1,
      relay: { port: 1 },
    });
    writeConfigFile(join(workspace, '.argus', 'config.json'), { chrome: { flags: ['--b'] }, idleTimeoutMs: 2 });
    const loaded = loadConfig({
      workspace,
      env: { XDG_CONFIG_HOME: xdg, ARGUS_IDLE_TIMEOUT_MS: '3' },
      flags: { relay: { port: 4 } },
    });
    expect(loaded.config).toEqual({
      chrome: { headless: false, flags: ['--b'] },
      idleTimeoutMs: 3,
      relay: { port: 4 },
    });
    expect(loaded.sources.get('chrome.headless')?.layer).toBe('user');
    expect(loaded.sources.get('chrome.flags')?.layer).toBe('project');
    expect(loaded.sources.get('idleTimeoutMs')).toEqual({ layer: 'env', where: 'ARGUS_IDLE_TIMEOUT_MS' });
    expect(loaded.sources.get('relay.port')?.layer).toBe('flags');
    expect(statSync(join(xdg, 'argus', 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('names the file and key of a bad value, and the variable of a bad env value', () => {
    const workspace = temp();
    mkdirSync(join(workspace, '.argus'));
    writeFileSync(join(workspace, '.argus', 'config.json'), '{"policy": {"domains": {"allow": "example.com"}}}');
    expect(() => loadConfig({ workspace, env: { XDG_CONFIG_HOME: temp() } })).toThrow(
      /config\.json: policy\.domains\.allow: .*array/,
    );
    writeFileSync(join(workspace, '.argus', 'config.json'), '{ not json');
    expect(() => loadConfig({ workspace, env: { XDG_CONFIG_HOME: temp() } })).toThrow(/is not valid JSON/);
    writeFileSync(join(workspace, '.argus', 'config.json'), '{"chrom": {}}');
    expect(() => loadConfig({ workspace, env: { XDG_CONFIG_HOME: temp() } })).toThrow(/Unrecognized key.*chrom/i);
    expect(() => loadConfig({ workspace: temp(), env: { XDG_CONFIG_HOME: temp(), ARGUS_HEADLESS: 'maybe' } })).toThrow(
      /ARGUS_HEADLESS: chrome.headless/,
    );
  });

  it('every env variable has a key; command-line values are parsed by the key type', () => {
    const keys = configKeys().map((entry) => entry.key);
    for (const { key } of CONFIG_ENV) expect(keys).toContain(key);
    expect(parseConfigValue('chrome.headless', 'false')).toBe(false);
    expect(parseConfigValue('relay.port', '9000')).toBe(9000);
    expect(parseConfigValue('policy.approve.commands', 'upload,download')).toEqual(['upload', 'download']);
    expect(parseConfigValue('policy.domains.deny', '["*.evil.test"]')).toEqual(['*.evil.test']);
    expect(parseConfigValue('chrome.path', '/opt/chrome')).toBe('/opt/chrome');
    expect(() => parseConfigValue('relay.port', 'x')).toThrow(/relay.port/);
    expect(() => parseConfigValue('nope', 'x')).toThrow(/Unknown config key/);
  });

  it('the CLI finds a state dir from the files without validating', () => {
    const workspace = temp();
    const xdg = temp();
    expect(quickStateDir(workspace, { XDG_CONFIG_HOME: xdg })).toBeUndefined();
    writeConfigFile(join(workspace, '.argus', 'config.json'), { stateDir: '/tmp/elsewhere' });
    expect(quickStateDir(workspace, { XDG_CONFIG_HOME: xdg })).toBe('/tmp/elsewhere');
    expect(quickStateDir(workspace, { XDG_CONFIG_HOME: xdg, ARGUS_STATE_DIR: '/tmp/env' })).toBe('/tmp/env');
    expect(JSON.parse(readFileSync(join(workspace, '.argus', 'config.json'), 'utf8'))).toEqual({
      stateDir: '/tmp/elsewhere',
    });
  });

  it("the project file is the one beside ARGUS_STATE_DIR when that dir has one (another project's .argus)", () => {
    const xdg = temp();
    const workspace = temp();
    const other = temp();
    writeConfigFile(join(workspace, '.argus', 'config.json'), { idleTimeoutMs: 1 });
    const env = { XDG_CONFIG_HOME: xdg, ARGUS_STATE_DIR: join(other, '.argus') };
    // a state dir with no config.json of its own: the workspace's file still applies
    expect(loadConfig({ workspace, env }).config.idleTimeoutMs).toBe(1);
    writeConfigFile(join(other, '.argus', 'config.json'), { idleTimeoutMs: 2 });
    const loaded = loadConfig({ workspace, env });
    expect(loaded.config.idleTimeoutMs).toBe(2);
    expect(loaded.files.project).toBe(join(other, '.argus', 'config.json'));
  });
});
