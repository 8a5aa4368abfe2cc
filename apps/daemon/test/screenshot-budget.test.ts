// A viewport screenshot with a pixel budget (what agents get) is captured without measuring the
// viewport first; the image's own size says whether it fits. A viewport over the budget is measured
// and captured again downscaled, and from then on measured first: either way the image is the same.
// With base64 and keepFile the image comes back inline and is kept as a file, byte for byte.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_SCREENSHOT_PIXELS, SCREENSHOT_MAX_EDGE } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { stamp } from '../src/output-path.js';
import { useHarness } from './harness.js';

const h = useHarness();

const agentShot = { format: 'jpeg', quality: 70, maxPixels: AGENT_SCREENSHOT_PIXELS } as const;

function withinBudget(shot: { width: number; height: number }): void {
  expect(shot.width * shot.height).toBeLessThanOrEqual(AGENT_SCREENSHOT_PIXELS);
  expect(Math.max(shot.width, shot.height)).toBeLessThanOrEqual(SCREENSHOT_MAX_EDGE);
}

describe('viewport screenshots within a pixel budget', () => {
  it('a viewport that fits is captured as it is', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    await h.client.emulation.viewport.mutate({ size: '1000x700' });
    const shot = await h.client.page.screenshot.mutate(agentShot);
    expect(shot).toMatchObject({ width: 1000, height: 700, format: 'jpeg' });
    expect(shot.scale).toBeUndefined();
  });

  it('one over the budget comes back downscaled, the same on the next call (measured first) and at twice the pixel ratio', async () => {
    await h.client.emulation.viewport.mutate({ size: '1600x1000' });
    const first = await h.client.page.screenshot.mutate(agentShot);
    withinBudget(first);
    expect(first.scale).toBeGreaterThan(0.5);
    expect(first.scale).toBeLessThan(1);
    const again = await h.client.page.screenshot.mutate(agentShot);
    expect({ width: again.width, height: again.height, scale: again.scale }).toEqual({
      width: first.width,
      height: first.height,
      scale: first.scale,
    });
    // 800x600 CSS px at 2 device px each: 1600x1200 image pixels, over the budget
    await h.client.emulation.viewport.mutate({ size: '800x600', scale: 2 });
    const dense = await h.client.page.screenshot.mutate(agentShot);
    withinBudget(dense);
    expect(dense.scale).toBeLessThan(1);
    // back under the budget: captured as it is again
    await h.client.emulation.viewport.mutate({ size: '640x480' });
    const small = await h.client.page.screenshot.mutate(agentShot);
    expect(small).toMatchObject({ width: 640, height: 480 });
    expect(small.scale).toBeUndefined();
  });

  it('base64 with keepFile: the image inline and the same bytes in a file under the state dir', async () => {
    const shot = await h.client.page.screenshot.mutate({ ...agentShot, base64: true, keepFile: true });
    expect(shot.path).toMatch(new RegExp(`^${join(h.workspace, '.argus', 'captures')}/screenshot-.*\\.jpg$`));
    const file = readFileSync(shot.path!);
    expect(file.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(Buffer.from(shot.base64!, 'base64')).toEqual(file);
    expect(shot.bytes).toBe(file.length);
    // base64 alone still writes nothing
    const inline = await h.client.page.screenshot.mutate({ ...agentShot, base64: true });
    expect(inline.path).toBeNull();
    expect(inline.base64).toBeTruthy();
    expect(existsSync(join(h.workspace, '.argus', 'captures'))).toBe(true);
  });
});

describe('the file a screenshot keeps in the state dir', () => {
  const captures = () => join(h.workspace, '.argus', 'captures');

  it('is created while Chrome captures, and removed when the screenshot fails after that', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    const before = readdirSync(captures());
    // a ref that names nothing fails once the file has been created (it is looked up after the checks)
    await expect(h.client.page.screenshot.mutate({ ...agentShot, ref: 'e999' })).rejects.toThrow();
    expect(readdirSync(captures())).toEqual(before);
    const shot = await h.client.page.screenshot.mutate(agentShot);
    expect(readdirSync(captures())).toEqual([...before, shot.path!.split('/').pop()].sort());
    expect(statSync(shot.path!).size).toBe(shot.bytes);
  });

  it('gets a name of its own when two are made in the same millisecond', () => {
    // before, a second name within the same millisecond was the first again, and its file replaced the first's
    const names = Array.from({ length: 50 }, () => stamp());
    expect(new Set(names).size).toBe(50);
    expect(names.every((name) => /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z(-\d+)?$/.test(name))).toBe(true);
  });
});
