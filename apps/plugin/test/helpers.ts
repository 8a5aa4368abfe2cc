import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectToDaemon, findRef, isProcessAlive, readState } from '@argus/client';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll } from 'vitest';

export const PLUGIN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER = join(PLUGIN_DIR, 'bin', 'argus-mcp.js');
export const REPO_ROOT = join(PLUGIN_DIR, '..', '..');

/** Dead proxy: external hosts fail at once on this closed network; loopback is never proxied. */
export const TEST_CHROME_FLAGS = '--proxy-server=http://127.0.0.1:9';

export interface PluginProcess {
  client: Client;
  transport: StdioClientTransport;
  close(): Promise<void>;
}

/**
 * The env a client config would set for the server in tests, plus TMPDIR: the leak guard gives each
 * run its own temp dir, and the daemon and Chromium the server starts must inherit it (MCP clients
 * pass only a few variables through by default).
 */
export function pluginEnv(stateDir: string): Record<string, string> {
  const pass = (name: string) => (process.env[name] ? { [name]: process.env[name] } : {});
  return {
    ARGUS_STATE_DIR: stateDir,
    ARGUS_CHROME_FLAGS: TEST_CHROME_FLAGS,
    ...pass('CHROME_PATH'),
    ...pass('TMPDIR'),
  };
}

/** Spawns a server with the official SDK client over stdio, the way an agent's MCP client does. */
export async function startPlugin(options: {
  command?: string;
  args?: string[];
  env: Record<string, string>;
  cwd: string;
  /** What the client says it can do (e.g. answer elicitations). */
  capabilities?: ConstructorParameters<typeof Client>[1];
}): Promise<PluginProcess> {
  const transport = new StdioClientTransport({
    command: options.command ?? process.execPath,
    args: options.args ?? [SERVER],
    env: options.env,
    cwd: options.cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'argus-plugin-test', version: '0' }, options.capabilities);
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

export type ToolResult = CallToolResult;

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** The first text block of a result. */
export function textOf(result: ToolResult): string {
  const block = result.content.find((item) => item.type === 'text');
  return block && block.type === 'text' ? block.text : '';
}

/** Calls a tool that must succeed and returns its text. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await callTool(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return textOf(result);
}

/**
 * The ref right after the first match of a pattern in a snapshot: works for one node a line
 * (`button "Go" e3`) and for collapsed siblings (`link "Home" e1 "News" e2`).
 */
export function refOf(snapshot: string, pattern: RegExp): string {
  const ref = findRef(snapshot, pattern);
  if (!ref) throw new Error(`No ${pattern} with a ref in:\n${snapshot}`);
  return ref;
}

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops the workspace daemon (if any) through the typed client and waits for its process to exit. */
export async function stopDaemon(stateDir: string): Promise<void> {
  const state = readState(stateDir);
  if (!state || !isProcessAlive(state.pid)) return;
  const stoppedBefore = stoppedInLog(stateDir);
  const connection = await connectToDaemon({ stateDir });
  try {
    await connection.client.daemon.stop.mutate({});
  } finally {
    connection.close();
  }
  // a daemon argus-mcp hosts stops without its process exiting, and its state file goes first in
  // its stop: it is done once its log says so (its last write to the state dir), so a test removing
  // the workspace next does not race its last files
  await waitFor(
    () => !isProcessAlive(state.pid) || stoppedInLog(stateDir) > stoppedBefore,
    15_000,
    `daemon pid ${state.pid} to stop`,
  );
}

/** How many stops the state dir's daemon log records. */
function stoppedInLog(stateDir: string): number {
  try {
    return readFileSync(join(stateDir, 'daemon.log'), 'utf8').split('"event":"daemon.stopped"').length - 1;
  } catch {
    return 0;
  }
}

/** A fixture server, a fresh workspace and one `argus-mcp` server in it, shared by a test file. */
export interface PluginWorkspace {
  fixtures: FixtureServer;
  workspace: string;
  stateDir: string;
  plugin: PluginProcess;
}

/**
 * Registers the file's beforeAll/afterAll for a PluginWorkspace: the server is started with `args`
 * (after SERVER) in a workspace named by `prefix`; afterwards the server, its daemon (and Chromium),
 * the fixture server and the workspace go. Read the fields inside tests (they are set in beforeAll).
 */
export function usePluginWorkspace(options: {
  prefix: string;
  args?: string[];
  env?: Record<string, string>;
}): PluginWorkspace {
  const set = {} as PluginWorkspace;
  beforeAll(async () => {
    set.fixtures = await startFixtureServer();
    set.workspace = mkdtempSync(join(tmpdir(), options.prefix));
    set.stateDir = join(set.workspace, '.argus');
    set.plugin = await startPlugin({
      args: [SERVER, ...(options.args ?? [])],
      env: { ...pluginEnv(set.stateDir), ...options.env },
      cwd: set.workspace,
    });
  });
  afterAll(async () => {
    await set.plugin?.close();
    if (set.stateDir) await stopDaemon(set.stateDir);
    await set.fixtures?.close();
    if (set.workspace) rmSync(set.workspace, { recursive: true, force: true });
  });
  return set;
}
