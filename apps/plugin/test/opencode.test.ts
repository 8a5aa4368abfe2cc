import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hooks, PluginInput } from '@opencode-ai/plugin';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_DIR, TEST_CHROME_FLAGS, refOf, stopDaemon } from './helpers.js';

let fixtures: FixtureServer;
let workspace: string;
let hooks: Hooks;

type ToolContext = Parameters<NonNullable<Hooks['tool']>[string]['execute']>[1];
const context = {
  sessionID: 's',
  messageID: 'm',
  agent: 'test',
  directory: '',
  worktree: '',
  abort: new AbortController().signal,
} as unknown as ToolContext;

async function run(name: string, args: Record<string, unknown> = {}) {
  const tool = hooks.tool?.[name];
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.execute(args as never, context);
}

beforeAll(async () => {
  fixtures = await startFixtureServer();
  // The daemon is the one of the directory OpenCode passes (no git repo here: <dir>/.argus).
  workspace = mkdtempSync(join(tmpdir(), 'argus-opencode-'));
  delete process.env.ARGUS_STATE_DIR;
  process.env.ARGUS_CHROME_FLAGS = TEST_CHROME_FLAGS;
});

afterAll(async () => {
  await hooks?.dispose?.();
  await stopDaemon(join(workspace, '.argus'));
  await fixtures?.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('OpenCode plugin (built dist/opencode.js)', () => {
  it('exports exactly one plugin function (OpenCode calls every export)', async () => {
    const module = (await import(join(PLUGIN_DIR, 'dist', 'opencode.js'))) as Record<string, unknown>;
    expect(Object.keys(module)).toEqual(['ArgusPlugin']);
    const plugin = module.ArgusPlugin as (input: PluginInput, options?: Record<string, unknown>) => Promise<Hooks>;
    hooks = await plugin({ directory: workspace, worktree: workspace } as PluginInput, { profile: 'core' });
    expect(Object.keys(hooks.tool ?? {})).toContain('argus_snapshot');
    expect(Object.keys(hooks.tool ?? {})).not.toContain('argus_pdf'); // a full-profile tool
  });

  it('drives a page: goto, snapshot, click by ref, text; screenshots attach the image; errors throw error[code]', async () => {
    await run('argus_goto', { url: fixtures.urlFor('/buttons.html') });
    const snapshot = String(await run('argus_snapshot', { interactive: true }));
    expect(snapshot).toMatch(/<<page [0-9a-f]{12}>>/);
    await run('argus_click', { target: refOf(snapshot, /"Increment"/) });
    expect(String(await run('argus_text', { target: '#count' }))).toContain('Count: 1');
    const shot = await run('argus_screenshot');
    // agent screenshots are bounded JPEGs unless a format is asked for
    expect(shot).toMatchObject({
      output: expect.stringMatching(/\.jpg \(jpeg \d+x\d+/),
      attachments: [
        { type: 'file', mime: 'image/jpeg', url: expect.stringMatching(/^data:image\/jpeg;base64,\/9j\//) },
      ],
    });
    await expect(run('argus_click', { target: 'e4242' })).rejects.toThrow(/^error\[ref_not_found\]: /);
  });
});
