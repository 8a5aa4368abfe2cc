import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_SCREENSHOT_PIXELS, SCREENSHOT_MAX_EDGE } from '@argus/protocol';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PluginProcess,
  type ToolResult,
  callTool,
  ok,
  pluginEnv,
  startPlugin,
  stopDaemon,
  textOf,
} from './helpers.js';

// Issue 14 for agents: bounded screenshots (JPEG, pixel budget, screenshot_too_large) and a snapshot
// diff that says when it has no baseline. Default (core) profile, real Chromium.

let fixtures: FixtureServer;
let workspace: string;
let stateDir: string;
let plugin: PluginProcess;

const tallPage = (height: number) =>
  `<!doctype html><title>tall</title><body style="margin:0"><div style="height:${height}px;background:linear-gradient(#fff,#36c)">top</div></body>`;

beforeAll(async () => {
  fixtures = await startFixtureServer({ pages: { '/tall': tallPage(20_000), '/longish': tallPage(2_000) } });
  workspace = mkdtempSync(join(tmpdir(), 'argus-mcp-images-'));
  stateDir = join(workspace, '.argus');
  plugin = await startPlugin({ env: pluginEnv(stateDir), cwd: workspace });
});

afterAll(async () => {
  await plugin?.close();
  await stopDaemon(stateDir);
  await fixtures?.close();
  rmSync(workspace, { recursive: true, force: true });
});

interface Shot {
  mimeType: string;
  bytes: Buffer;
  structured: { format: string; width: number; height: number; scale?: number };
}

function imageOf(result: ToolResult): Shot {
  expect(result.isError, textOf(result)).toBeFalsy();
  const image = result.content.find((item) => item.type === 'image');
  if (!image || image.type !== 'image') throw new Error(`no image in ${textOf(result)}`);
  return {
    mimeType: image.mimeType,
    bytes: Buffer.from(image.data, 'base64'),
    structured: result.structuredContent as Shot['structured'],
  };
}

function withinBudget(shot: Shot): void {
  const { width, height } = shot.structured;
  expect(width * height).toBeLessThanOrEqual(AGENT_SCREENSHOT_PIXELS);
  expect(Math.max(width, height)).toBeLessThanOrEqual(SCREENSHOT_MAX_EDGE);
}

describe('argus_snapshot {diff: true}', () => {
  it('with no baseline says so and marks the full snapshot; the next diff compares with it', async () => {
    // first in this file: no snapshot of this tab was taken yet
    await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/buttons.html') });
    const first = await callTool(plugin.client, 'argus_snapshot', { diff: true });
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ baseline: 'none' });
    expect(textOf(first)).toMatch(/\[no earlier snapshot of this tab in this mode to diff against/);
    expect(textOf(first)).toMatch(/button "Increment"/);
    const second = await callTool(plugin.client, 'argus_snapshot', { diff: true });
    expect(second.structuredContent).toMatchObject({ baseline: 'previous' });
    expect(textOf(second)).not.toMatch(/no earlier snapshot/);
  });

  it('after an interactive snapshot, diff alone compares in that view (the loop the server instructions give)', async () => {
    await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/buttons.html') });
    await ok(plugin.client, 'argus_snapshot', { interactive: true });
    await ok(plugin.client, 'argus_eval', {
      js: "document.body.append(Object.assign(document.createElement('button'), { textContent: 'Added' })); 1",
    });
    const diff = await callTool(plugin.client, 'argus_snapshot', { diff: true });
    expect(diff.structuredContent).toMatchObject({ baseline: 'previous' });
    expect(textOf(diff)).toMatch(/^\+ .*button "Added"/m);
    // only the change: not the whole tree again
    expect(textOf(diff)).not.toMatch(/button "Increment"/);
    // a view given with it is that view: no full snapshot of this document was taken to compare with
    const full = await callTool(plugin.client, 'argus_snapshot', { diff: true, interactive: false });
    expect(full.structuredContent).toMatchObject({ baseline: 'navigated' });
    expect(textOf(full)).toMatch(/button "Increment"/);
  });
});

describe('argus_screenshot for agents', () => {
  it('defaults to a JPEG within the pixel budget', async () => {
    await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/buttons.html') });
    const shot = imageOf(await callTool(plugin.client, 'argus_screenshot', {}));
    expect(shot.mimeType).toBe('image/jpeg');
    expect(shot.bytes.subarray(0, 3).toString('hex')).toBe('ffd8ff');
    expect(shot.structured.format).toBe('jpeg');
    withinBudget(shot);
  });

  it('downscales an area above the budget and says by how much; PNG on request', async () => {
    const clip = '0,0,1600,1000'; // 1.6 MP
    const jpeg = imageOf(await callTool(plugin.client, 'argus_screenshot', { clip }));
    withinBudget(jpeg);
    expect(jpeg.structured.scale).toBeCloseTo(Math.sqrt(AGENT_SCREENSHOT_PIXELS / 1_600_000), 2);
    const png = await callTool(plugin.client, 'argus_screenshot', { clip, format: 'png' });
    const shot = imageOf(png);
    expect(shot.mimeType).toBe('image/png');
    expect(shot.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    withinBudget(shot);
    expect(textOf(png)).toMatch(/\(png \d+x\d+, \d+ bytes, scaled to 87%\)$/);
  });

  it('a full page a little too tall comes back scaled; a very tall one is refused with what to do', async () => {
    await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/longish') });
    const longish = imageOf(await callTool(plugin.client, 'argus_screenshot', { full: true }));
    withinBudget(longish);
    expect(longish.structured.scale).toBeLessThan(1);

    await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/tall') });
    const tall = await callTool(plugin.client, 'argus_screenshot', { full: true });
    expect(tall.isError).toBe(true);
    expect(tall.content.some((item) => item.type === 'image')).toBe(false);
    expect(textOf(tall)).toMatch(/^error\[screenshot_too_large\]: The full page is \d+x20000 px; .* shrink to \d+%/);
    expect(textOf(tall)).toMatch(/clip/);
    // the viewport of the same page is fine
    withinBudget(imageOf(await callTool(plugin.client, 'argus_screenshot', {})));
  });
});
