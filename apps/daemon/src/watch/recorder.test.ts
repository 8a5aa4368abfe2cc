// The recorder keeps frames in the order the page showed them: a frame held for its turn (it came
// too soon after the last one kept) never lands after a newer frame kept in the meantime.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@argus/cdp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Recording } from './recorder.js';
import type { FrameSink, ScreencastHub } from './screencast-hub.js';

let dir: string | undefined;

afterEach(() => {
  vi.useRealTimers();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

/**
 * Records frames shown at `offsets` ms after the start, delivered one after the other with no timer
 * run in between (a busy event loop), then lets `advanceMs` pass and stops: the kept frames' times.
 */
async function keptTimes(offsets: number[], advanceMs: number): Promise<number[]> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const start = Date.now();
  dir = mkdtempSync(join(tmpdir(), 'argus-recorder-'));
  let sink: FrameSink | undefined;
  const hub = {
    subscribe(_page: Page, given: FrameSink) {
      sink = given;
      return () => undefined;
    },
  } as unknown as ScreencastHub;
  const page = { id: 'T1', url: 'http://127.0.0.1/' } as unknown as Page;
  const recording = new Recording(page, hub, {
    dir,
    policy: undefined,
    overwrite: false,
    fps: 10,
    maxSize: 800,
    maxBytes: 1_000_000,
    webm: null,
    ffmpeg: undefined,
  });
  offsets.forEach((offset, index) =>
    sink!.frame({ seq: index + 1, data: JPEG, at: start + offset, width: 10, height: 10 }),
  );
  vi.advanceTimersByTime(advanceMs);
  vi.useRealTimers();
  const result = await recording.stop('stopped');
  const manifest = JSON.parse(readFileSync(result.manifest, 'utf8')) as { frames: { t: number }[] };
  return manifest.frames.map((kept) => kept.t);
}

describe('Recording', () => {
  it('drops a held frame once a newer one is kept on time, so the times never go back', async () => {
    // kept; too soon (held for its turn, start + 100); on time, before the held one's timer ran
    expect(await keptTimes([0, 50, 120], 200)).toEqual([0, 120]);
  });

  it('writes a held frame at its turn when nothing newer came', async () => {
    expect(await keptTimes([0, 50], 60)).toEqual([0, 50]);
  });
});
