// The recorder keeps frames in the order the page showed them: a frame held for its turn (it came
// too soon after the last one kept) never lands after a newer frame kept in the meantime.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@argus/cdp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Recording } from './recorder.js';
import type { FrameSink, ScreencastFrame, ScreencastHub } from './screencast-hub.js';

let dir: string | undefined;

afterEach(() => {
  vi.useRealTimers();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function recording(): { recording: Recording; sink: () => FrameSink } {
  dir = mkdtempSync(join(tmpdir(), 'argus-recorder-'));
  let sink: FrameSink | undefined;
  const hub = {
    subscribe(_page: Page, given: FrameSink) {
      sink = given;
      return () => undefined;
    },
  } as unknown as ScreencastHub;
  const page = { id: 'T1', url: 'http://127.0.0.1/' } as unknown as Page;
  const made = new Recording(page, hub, {
    dir,
    policy: undefined,
    overwrite: false,
    fps: 10,
    maxSize: 800,
    maxBytes: 1_000_000,
    webm: null,
    ffmpeg: undefined,
  });
  return { recording: made, sink: () => sink! };
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
const frame = (seq: number, at: number): ScreencastFrame => ({ seq, data: JPEG, at, width: 10, height: 10 });

describe('Recording', () => {
  it('drops a held frame once a newer one is kept on time, so the times never go back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const start = Date.now();
    const { recording: made, sink } = recording();
    sink().frame(frame(1, start)); // kept
    sink().frame(frame(2, start + 50)); // too soon: held for its turn (start + 100)
    // the next frame arrives on time before the held one's timer ran (a busy event loop)
    sink().frame(frame(3, start + 120));
    vi.advanceTimersByTime(200);
    vi.useRealTimers();
    const result = await made.stop('stopped');
    const manifest = JSON.parse(readFileSync(result.manifest, 'utf8')) as { frames: { t: number }[] };
    expect(manifest.frames.map((kept) => kept.t)).toEqual([0, 120]);
  });

  it('writes a held frame at its turn when nothing newer came', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const start = Date.now();
    const { recording: made, sink } = recording();
    sink().frame(frame(1, start));
    sink().frame(frame(2, start + 50));
    vi.advanceTimersByTime(60);
    vi.useRealTimers();
    const result = await made.stop('stopped');
    const manifest = JSON.parse(readFileSync(result.manifest, 'utf8')) as { frames: { t: number }[] };
    expect(manifest.frames.map((kept) => kept.t)).toEqual([0, 50]);
  });
});
