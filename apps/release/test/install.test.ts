import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readState } from '@argus/client';
import { allToolSpecs, selectTools } from '@argus/plugin';
import { type FixtureServer, runProcess, startFixtureServer } from '@argus/test-kit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstalledProject, REPO_ROOT, installPackedArgus, userEnv } from './installed-project.js';

// The published package as a user meets it: packed once, installed with plain npm into an empty
// project, then driven only through what the install put there (node_modules/.bin and `argus/client`).

/** Dead proxy: external hosts fail at once on this closed network; loopback is never proxied. */
const env = userEnv({ ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' });

const CLIENT_SCRIPT = `import { connect, findRef, isArgusError, ArgusError, type RouterOutputs } from 'argus/client';

const url = process.argv[2];
if (!url) throw new Error('usage: node main.js <url>');
const connection = await connect();
try {
  const { client } = connection;
  await client.page.goto.mutate({ url });
  const { text: snapshot } = await client.snapshot.take.mutate({ interactive: true });
  const name = findRef(snapshot, 'Name');
  if (!name) throw new Error('no ref for the Name field in: ' + snapshot);
  await client.input.fill.mutate({ target: name, text: 'Ada' });
  const value: RouterOutputs['page']['eval'] = await client.page.eval.mutate({ js: 'document.querySelector("#name").value' });
  let code = '';
  try {
    await client.input.click.mutate({ target: 'e9999' });
  } catch (error) {
    if (!isArgusError(error) || !(error instanceof ArgusError)) throw error;
    code = error.code;
  }
  // @ts-expect-error a misspelt field is a compile error: the types come from the manifest
  void (() => client.page.goto.mutate({ ulr: url }));
  console.log(JSON.stringify({ started: connection.started, value: value.value, code }));
} finally {
  connection.close();
}
`;

/**
 * What an OpenCode plugin file in the project does (docs/AGENTS.md: `.opencode/plugin/argus.js`
 * re-exporting `argus/opencode`), then what OpenCode does with it: call each export with the
 * project's directory, list the tools, run one.
 */
const OPENCODE_SCRIPT = `import * as plugin from 'argus/opencode';

const url = process.argv[2];
const hooks = await plugin.ArgusPlugin({ directory: process.cwd(), worktree: process.cwd() }, {});
try {
  const output = await hooks.tool.argus_goto.execute({ url }, {});
  console.log(JSON.stringify({ exports: Object.keys(plugin), tools: Object.keys(hooks.tool), output }));
} finally {
  await hooks.dispose?.();
}
`;

/** The JSON block after docs/AGENTS.md's marker naming this test. */
function verifiedMcpConfig(): { command: string; args: string[] } {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'AGENTS.md'), 'utf8');
  const match = /<!-- verified: apps\/release\/test\/install\.test\.ts[^>]*-->\s*```json\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error('docs/AGENTS.md has no block verified by apps/release/test/install.test.ts');
  return (JSON.parse(match[1]!) as { mcpServers: { argus: { command: string; args: string[] } } }).mcpServers.argus;
}

/** The TypeScript block after docs/CLIENT.md's marker naming this test, with its URL pointed at `url`. */
function clientDocSnippet(url: string): string {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'CLIENT.md'), 'utf8');
  const match = /<!-- verified: apps\/release\/test\/install\.test\.ts[^>]*-->\s*```ts\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error('docs/CLIENT.md has no block verified by apps/release/test/install.test.ts');
  return match[1]!.replaceAll('https://example.com', url);
}

/**
 * A user's tsconfig as `tsc --init` writes it (skipLibCheck on: checking every library's .d.ts costs
 * ~35 s here). Types that failed to resolve would turn the client into `any`, which the script's
 * `@ts-expect-error` line catches (an unused expect-error is an error).
 */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    types: ['node'],
    outDir: 'build',
    skipLibCheck: true,
  },
  include: ['main.ts', 'snippet.ts'],
};

describe('the packed argus package, installed with npm into an empty project', () => {
  let project: InstalledProject | undefined;
  let server: FixtureServer | undefined;
  const installed = () => {
    if (!project) throw new Error('not installed');
    return project;
  };
  const argus = (...args: string[]) => runProcess(installed().bin('argus'), args, { cwd: installed().dir, env });

  beforeAll(async () => {
    server = await startFixtureServer();
    project = await installPackedArgus();
    // packing and npm install each have their own 240 s bound (a cold npm cache on a loaded machine
    // took past 300 s in the fresh-machine run); the hook outlasts both so their errors say which
  }, 540_000);

  afterAll(async () => {
    if (project && existsSync(join(project.dir, '.argus', 'daemon.json'))) await argus('stop');
    await server?.close();
    project?.dispose();
  });

  it('declares only pinned third-party dependencies and ships no workspace package', () => {
    const manifest = JSON.parse(
      readFileSync(join(installed().dir, 'node_modules', 'argus', 'package.json'), 'utf8'),
    ) as { dependencies: Record<string, string>; bin: Record<string, string> };
    expect(Object.keys(manifest.bin).sort()).toEqual(['argus', 'argus-mcp']);
    for (const [name, version] of Object.entries(manifest.dependencies)) {
      expect(name).not.toMatch(/^@argus\//);
      expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(existsSync(join(installed().dir, 'node_modules', '@argus'))).toBe(false);
    expect(installed().tarballBytes).toBeGreaterThan(0);
  });

  it('argus --version and --help run from node_modules/.bin', async () => {
    const version = await argus('--version');
    expect(version.code).toBe(0);
    const { version: packed } = JSON.parse(
      readFileSync(join(installed().dir, 'node_modules', 'argus', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(version.stdout.trim()).toBe(`argus ${packed}`);
    const help = await argus('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^\s+goto\s/m);
    expect(help.stdout).toMatch(/^\s+snapshot\s/m);
  });

  it('argus goto + argus text drive real Chromium through the bundled daemon', async () => {
    const goto = await argus('goto', server!.urlFor('/form.html'));
    expect(goto.code, goto.stderr).toBe(0);
    expect(goto.stderr).toContain('starting the daemon');
    const text = await argus('text');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Sign up');
    expect(text.stdout).toContain('Country');
    // the native SQLite driver npm built for the package loads from the bundle: the journal writes
    const journal = await argus('journal', '--json');
    expect(journal.code, journal.stderr).toBe(0);
    const read = JSON.parse(journal.stdout) as { entries: Array<{ command: string }>; journal: { ok: boolean } };
    expect(read.journal.ok).toBe(true);
    expect(read.entries.map((entry) => entry.command)).toEqual(['page.goto', 'read.text']);
  });

  it("docs/AGENTS.md's argus-mcp config answers tools/list over stdio (official MCP SDK client) and hosts its daemon", async () => {
    const config = verifiedMcpConfig();
    expect(config.command).toBe('argus-mcp');
    // as after `npm install -g`: the command is looked up on the PATH
    const PATH = `${join(installed().dir, 'node_modules', '.bin')}:${env.PATH ?? ''}`;
    // its own state dir: no daemon runs there, so the server hosts one (the bundle's lazy daemon chunk)
    const stateDir = join(installed().dir, '.argus-mcp');
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      cwd: installed().dir,
      env: { ...env, PATH, ARGUS_STATE_DIR: stateDir },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'argus-install-test', version: '0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      // the default (core) profile of the workspace's plugin, from the same manifest
      const core = selectTools(allToolSpecs()).map((spec) => spec.name);
      expect(core.length).toBeGreaterThan(5);
      expect(tools.map((tool) => tool.name).sort()).toEqual(core.sort());
      const goto = await client.callTool({ name: 'argus_goto', arguments: { url: server!.urlFor('/form.html') } });
      expect(JSON.stringify(goto.content)).toContain('Sign up');
      expect(readState(stateDir)?.pid).toBe(transport.pid);
    } finally {
      await client.close();
    }
    expect(readState(stateDir)).toBeUndefined();
  });

  it("argus/opencode imports from the installed package, exports only ArgusPlugin, and exposes the MCP server's tools", async () => {
    const dir = installed().dir;
    writeFileSync(join(dir, 'opencode-check.mjs'), OPENCODE_SCRIPT);
    const run = await runProcess(process.execPath, [join(dir, 'opencode-check.mjs'), server!.urlFor('/form.html')], {
      cwd: dir,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim()) as { exports: string[]; tools: string[]; output: string };
    // OpenCode calls every export of a plugin module as a plugin
    expect(result.exports).toEqual(['ArgusPlugin']);
    const core = selectTools(allToolSpecs()).map((spec) => spec.name);
    expect(result.tools.sort()).toEqual(core.sort());
    expect(result.output).toContain('Sign up');
  });

  it("TypeScript importing argus/client (a script and docs/CLIENT.md's snippet) type-checks with tsc and runs against the same daemon", async () => {
    const dir = installed().dir;
    writeFileSync(join(dir, 'main.ts'), CLIENT_SCRIPT);
    writeFileSync(join(dir, 'snippet.ts'), clientDocSnippet(server!.urlFor('/form.html')));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
    const check = await runProcess(process.execPath, [tsc, '--noEmit', '-p', '.'], { cwd: dir, env });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    // already checked: emit only (--noCheck), so the file runs on Node 20, which cannot strip types
    const emit = await runProcess(process.execPath, [tsc, '-p', '.', '--noCheck'], { cwd: dir, env });
    expect(emit.code, emit.stdout + emit.stderr).toBe(0);
    const run = await runProcess(process.execPath, [join(dir, 'build', 'main.js'), server!.urlFor('/form.html')], {
      cwd: dir,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    // the CLI above started this project's daemon: the script found it rather than starting another
    expect(JSON.parse(run.stdout.trim())).toEqual({ started: false, value: 'Ada', code: 'ref_not_found' });
    const snippet = await runProcess(process.execPath, [join(dir, 'build', 'snippet.js')], { cwd: dir, env });
    expect(snippet.code, snippet.stderr).toBe(0);
    expect(snippet.stdout).toMatch(/textbox "Name" e\d+/);
    expect(snippet.stdout).toContain('Sign up');
  });
});
