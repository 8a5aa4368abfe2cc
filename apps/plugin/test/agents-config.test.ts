import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, ok, pluginEnv, refOf, startPlugin, stopDaemon } from './helpers.js';

/** The JSON block right after this test's `<!-- verified: apps/plugin/... -->` marker in docs/AGENTS.md (the installed `argus-mcp` block is apps/release's). */
function verifiedConfig(): { command: string; args: string[] } {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'AGENTS.md'), 'utf8');
  const match = /<!-- verified: apps\/plugin\/test\/agents-config\.test\.ts[^>]*-->\s*```json\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error('docs/AGENTS.md has no verified config block');
  const parsed = JSON.parse(match[1]!.replaceAll('/path/to/argus', REPO_ROOT)) as {
    mcpServers: { argus: { command: string; args: string[] } };
  };
  return parsed.mcpServers.argus;
}

const CLI = join(REPO_ROOT, 'apps', 'cli', 'dist', 'argus.js');
/** `argus mcp` ships in the CLI's next build; until then its dist has no mcp verb to run. */
const cliHasMcp = existsSync(CLI) && readFileSync(CLI, 'utf8').includes('@argus/plugin/server');

let fixtures: FixtureServer;
let workspace: string;
let stateDir: string;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  workspace = mkdtempSync(join(tmpdir(), 'argus-agents-'));
  stateDir = join(workspace, '.argus');
});

afterAll(async () => {
  await stopDaemon(stateDir);
  await fixtures?.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('docs/AGENTS.md', () => {
  it('the generic stdio config starts a working server', async () => {
    const config = verifiedConfig();
    expect(config.command).toBe('node');
    // `node` from PATH, exactly as a client would run it.
    const plugin = await startPlugin({
      command: config.command,
      args: config.args,
      env: { ...pluginEnv(stateDir), PATH: process.env.PATH ?? '' },
      cwd: workspace,
    });
    try {
      const { tools } = await plugin.client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('argus_snapshot');
      await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/buttons.html') });
      const snapshot = await ok(plugin.client, 'argus_snapshot', { interactive: true });
      await ok(plugin.client, 'argus_click', { target: refOf(snapshot, /"Increment"/) });
      expect(await ok(plugin.client, 'argus_text', { target: '#count' })).toContain('Count: 1');
    } finally {
      await plugin.close();
    }
  });

  it.skipIf(!cliHasMcp)('`argus mcp` serves the same tools', async () => {
    const plugin = await startPlugin({
      args: [CLI, 'mcp', '--tools', 'tabs,goto'],
      env: pluginEnv(stateDir),
      cwd: workspace,
    });
    try {
      const { tools } = await plugin.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['argus_goto', 'argus_tabs']);
      // the first server's daemon (and its tabs) went with it: this one opens its own page
      await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/buttons.html') });
      expect(await ok(plugin.client, 'argus_tabs')).toContain('buttons.html');
    } finally {
      await plugin.close();
    }
  });
});
