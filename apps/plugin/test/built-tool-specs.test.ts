// The bundled MCP server lists the tool specs its build wrote beside it (dist/daemon/tool-specs.json)
// instead of converting every command's zod schemas at each start (issue 16); a file that does not
// match the manifest (a command it lacks or invents) is ignored and the specs are computed.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_DIR, pluginEnv, startPlugin } from './helpers.js';

interface StoredSpec {
  name: string;
  description: string;
  command: string;
}

// a copy of the bundle inside the package, so its run-time externals resolve as from dist/daemon
let bundle: string;
let workspace: string;
let stored: StoredSpec[];

beforeAll(() => {
  bundle = mkdtempSync(join(PLUGIN_DIR, '.test-bundle-'));
  cpSync(join(PLUGIN_DIR, 'dist', 'daemon'), bundle, { recursive: true });
  workspace = mkdtempSync(join(tmpdir(), 'argus-built-specs-'));
  stored = JSON.parse(readFileSync(join(bundle, 'tool-specs.json'), 'utf8')) as StoredSpec[];
});

afterAll(() => {
  rmSync(bundle, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

/** The description argus_tabs is listed with by the bundled server, given this tool-specs.json. */
async function listedWith(specs: StoredSpec[]): Promise<string | undefined> {
  writeFileSync(join(bundle, 'tool-specs.json'), JSON.stringify(specs));
  const plugin = await startPlugin({
    args: [join(bundle, 'argus-mcp.js'), '--profile', 'full'],
    env: { ...pluginEnv(join(workspace, '.argus')), ARGUS_PRELAUNCH: '0' },
    cwd: workspace,
  });
  try {
    const { tools } = await plugin.client.listTools();
    return tools.find((tool) => tool.name === 'argus_tabs')?.description;
  } finally {
    await plugin.close();
  }
}

const marked = (specs: StoredSpec[]) =>
  specs.map((spec) => (spec.name === 'argus_tabs' ? { ...spec, description: 'from the built file' } : spec));

describe('the bundled MCP server', () => {
  it('lists the specs from the file its build wrote', async () => {
    expect(await listedWith(marked(stored))).toBe('from the built file');
  });

  it('computes them when the file does not match the manifest', async () => {
    const computed = stored.find((spec) => spec.name === 'argus_tabs')?.description;
    // one command left out
    expect(await listedWith(marked(stored).slice(1))).toBe(computed);
    // one that names a command the manifest does not have
    const invented = marked(stored).map((spec, i) => (i === 0 ? { ...spec, command: 'no.such' } : spec));
    expect(await listedWith(invented)).toBe(computed);
    // one listed twice in place of another (the count still matches)
    const repeated = marked(stored).map((spec, i, all) => (i === 0 ? all[1]! : spec));
    expect(await listedWith(repeated)).toBe(computed);
  });
});
