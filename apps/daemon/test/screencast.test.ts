import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf, useHarness } from './harness.js';

// Issue 20, screencast: a tab recorded to numbered JPEG frames plus manifest.json in real Chromium;
// the recording ends with the tab and at the disk cap, and its paths pass the output-path guard.

// a PATH without ffmpeg, whether or not the machine has one (the WebM path is screencast-webm.test.ts)
const h = useHarness({ PATH: '/nonexistent' });
const outside = mkdtempSync(join(resolve('.'), '.argus-outside-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

interface Manifest {
  tab: string;
  reason: string;
  fps: number;
  frames: Array<{ file: string; t: number; width: number; height: number; bytes: number }>;
}

function jpegs(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.jpg'));
}

async function openTab(): Promise<string> {
  return (await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') })).id;
}

/** Changes the page `times` times, each after the previous frame had time to be kept at `fps`. */
async function animate(tab: string, times: number, gapMs: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await h.client.page.eval.mutate({
      tab,
      js: `document.body.style.background = 'hsl(${(i * 67) % 360}, 80%, 50%)'; document.title = 'step ${i}'`,
    });
    await new Promise((done) => setTimeout(done, gapMs));
  }
}

describe('argus screencast', () => {
  it('writes numbered JPEG frames and a manifest with their times; no WebM without ffmpeg, and says so', async () => {
    const tab = await openTab();
    const dir = join(h.workspace, 'recordings', 'run1');
    const started = await h.client.screencast.start.mutate({ tab, path: dir, fps: 10 });
    expect(started).toEqual({ tab, dir, webm: null, ffmpeg: false });
    await animate(tab, 5, 150);
    // each change is kept (at most 10 a second; one that came too soon is written at its turn)
    await expect.poll(() => jpegs(dir).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const result = await h.client.screencast.stop.mutate({ tab });
    expect(result).toMatchObject({ tab, dir, reason: 'stopped', webm: null });
    expect(result.note).toMatch(/ffmpeg is not on the PATH/);
    expect(result.frames).toBeGreaterThanOrEqual(3);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest).toMatchObject({ tab, reason: 'stopped', fps: 10 });
    expect(manifest.frames).toHaveLength(result.frames);
    let total = 0;
    manifest.frames.forEach((frame, index) => {
      expect(frame.file).toBe(`frame-${String(index + 1).padStart(6, '0')}.jpg`);
      const data = readFileSync(join(dir, frame.file));
      expect(data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(data.length).toBe(frame.bytes);
      total += data.length;
      if (index > 0) expect(frame.t).toBeGreaterThanOrEqual(manifest.frames[index - 1]?.t ?? 0);
    });
    expect(result.bytes).toBe(total);
    // at most 10 a second (a frame that came too soon is written at its turn, with its own time)
    const span = (manifest.frames.at(-1)?.t ?? 0) - (manifest.frames[0]?.t ?? 0);
    expect(manifest.frames.length).toBeLessThanOrEqual(Math.floor(span / 100) + 2);
    expect(readdirSync(dir).sort()).toEqual([...manifest.frames.map((frame) => frame.file), 'manifest.json'].sort());
    // the screencast is stopped with the last sink
    await expect.poll(() => h.daemon.services.watch.hub.active).toBe(0);
  });

  it('stops by itself when the tab closes, and stop reports why', async () => {
    const tab = await openTab();
    const started = await h.client.screencast.start.mutate({ tab });
    expect(started.dir.startsWith(join(h.daemon.stateDir, 'captures'))).toBe(true);
    await animate(tab, 2, 120);
    await expect.poll(() => jpegs(started.dir).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await h.client.tabs.close.mutate({ id: tab });
    const result = await h.client.screencast.stop.mutate({ tab });
    expect(result).toMatchObject({ tab, reason: 'tab_closed' });
    expect(result.frames).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(result.manifest, 'utf8'))).toMatchObject({ reason: 'tab_closed' });
  });

  it('stops at the disk cap with that reason, under the cap', async () => {
    const tab = await openTab();
    // noise compresses badly: each frame is large, so the cap is reached in a few frames
    await h.client.page.eval.mutate({
      tab,
      js: `const c = document.createElement('canvas'); c.width = 1200; c.height = 700; document.body.prepend(c);
        window.__noise = () => { const g = c.getContext('2d'); const img = g.createImageData(1200, 700);
        crypto.getRandomValues(img.data.subarray(0, 65536)); for (let i = 0; i < img.data.length; i += 65536) crypto.getRandomValues(img.data.subarray(i, i + 65536));
        for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255; g.putImageData(img, 0, 0); };`,
    });
    const started = await h.client.screencast.start.mutate({ tab, maxMb: 0.5, fps: 30 });
    for (let i = 0; i < 40 && h.daemon.services.watch.recordings.get(tab)?.running; i++) {
      await h.client.page.eval.mutate({ tab, js: 'window.__noise()' });
      await new Promise((done) => setTimeout(done, 60));
    }
    const result = await h.client.screencast.stop.mutate({ tab });
    expect(result.reason).toBe('disk_cap');
    expect(result.bytes).toBeLessThanOrEqual(0.5 * 1024 * 1024);
    const onDisk = readdirSync(started.dir)
      .filter((name) => name.endsWith('.jpg'))
      .reduce((sum, name) => sum + statSync(join(started.dir, name)).size, 0);
    expect(onDisk).toBe(result.bytes);
  });

  it('refuses a path outside the allowed area, an existing recording without --overwrite, and a second recording of a tab', async () => {
    const tab = await openTab();
    expect(await codeOf(h.client.screencast.start.mutate({ tab, path: join(outside, 'rec') }))).toBe('path_forbidden');
    expect(existsSync(join(outside, 'rec'))).toBe(false);
    expect(await codeOf(h.client.screencast.start.mutate({ tab, path: join(outside, 'clip.webm') }))).toBe(
      'path_forbidden',
    );
    const dir = join(h.workspace, 'recordings', 'again');
    await h.client.screencast.start.mutate({ tab, path: dir });
    expect(await codeOf(h.client.screencast.start.mutate({ tab, path: join(h.workspace, 'other') }))).toBe(
      'invalid_input',
    );
    await h.client.screencast.stop.mutate({});
    expect(await codeOf(h.client.screencast.start.mutate({ tab, path: dir }))).toBe('file_exists');
    // a file where the directory should be is the caller's mistake, typed (it was an internal error)
    writeFileSync(join(h.workspace, 'in-the-way'), 'x');
    expect(await codeOf(h.client.screencast.start.mutate({ tab, path: join(h.workspace, 'in-the-way') }))).toBe(
      'invalid_input',
    );
    expect(await codeOf(h.client.screencast.stop.mutate({}))).toBe('invalid_input');
  });
});
