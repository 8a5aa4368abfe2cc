import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@argus/cdp';
import { type PathPolicy, placeFile, writeOutput } from '@argus/security';
import { encodeWebm } from './ffmpeg.js';
import type { FrameSink, ScreencastFrame, ScreencastHub } from './screencast-hub.js';

export type EndReason = 'stopped' | 'tab_closed' | 'disk_cap' | 'write_failed';

export interface RecordingOptions {
  /** The frames' directory (exists, confined). */
  dir: string;
  /** Re-checked on every file written (undefined: the daemon's own captures dir). */
  policy: PathPolicy | undefined;
  overwrite: boolean;
  fps: number;
  maxSize: number;
  maxBytes: number;
  /** Where the WebM goes, when ffmpeg was found. */
  webm: string | null;
  ffmpeg: string | undefined;
}

export interface RecordingResult {
  tab: string;
  dir: string;
  manifest: string;
  frames: number;
  bytes: number;
  durationMs: number;
  reason: EndReason;
  webm: string | null;
  note: string | null;
}

interface FrameRecord {
  file: string;
  /** ms after the recording started */
  t: number;
  width: number;
  height: number;
  bytes: number;
}

/** Frames waiting for the disk; past this a frame is dropped (counted) rather than held in memory. */
const MAX_PENDING = 16;

/**
 * One tab recorded to numbered JPEG frames: a sink of the tab's shared screencast that keeps at most
 * `fps` frames a second, writes them in order through the output-path guard, and on the end writes
 * manifest.json (each frame's time) and, with ffmpeg, a WebM. It ends by itself when the tab closes,
 * the disk cap is reached or a write fails, and keeps the reason for `screencast stop`.
 */
export class Recording {
  private readonly frames: FrameRecord[] = [];
  private bytes = 0;
  private dropped = 0;
  private pending = 0;
  private writes: Promise<void> = Promise.resolve();
  private lastKeptAt = -Infinity;
  /** The newest frame that came too soon after the last one kept: written when its turn comes, unless a newer one replaces it. */
  private deferred: ScreencastFrame | undefined;
  private deferTimer: NodeJS.Timeout | undefined;
  private readonly startedAt = Date.now();
  private unsubscribe: (() => void) | undefined;
  private ending: Promise<RecordingResult> | undefined;
  private readonly url: string;

  constructor(
    readonly page: Page,
    hub: ScreencastHub,
    private readonly options: RecordingOptions,
  ) {
    this.url = page.url;
    const sink: FrameSink = {
      frame: (frame) => this.take(frame),
      ended: () => void this.stop('tab_closed'),
    };
    this.unsubscribe = hub.subscribe(page, sink, options.maxSize);
  }

  get running(): boolean {
    return this.ending === undefined;
  }

  get dir(): string {
    return this.options.dir;
  }

  private take(frame: ScreencastFrame): void {
    if (this.ending) return;
    const interval = 1000 / this.options.fps;
    if (frame.at - this.lastKeptAt < interval) {
      // a page that changes and then stays still must end on its last state, not on an older one
      this.deferred = frame;
      this.deferTimer ??= setTimeout(() => this.takeDeferred(), this.lastKeptAt + interval - frame.at);
      return;
    }
    // a frame held for its turn is older than this one, which comes on time: this one replaces it
    // (kept after, the held one would put the page back to an older state, its time out of order)
    clearTimeout(this.deferTimer);
    this.deferTimer = undefined;
    this.deferred = undefined;
    this.keep(frame);
  }

  private takeDeferred(): void {
    this.deferTimer = undefined;
    const frame = this.deferred;
    this.deferred = undefined;
    if (frame && !this.ending) this.keep(frame);
  }

  private keep(frame: ScreencastFrame): void {
    if (this.bytes + frame.data.length > this.options.maxBytes) {
      void this.stop('disk_cap');
      return;
    }
    if (this.pending >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    this.lastKeptAt = frame.at;
    this.bytes += frame.data.length;
    const record: FrameRecord = {
      file: `frame-${String(this.frames.length + 1).padStart(6, '0')}.jpg`,
      t: frame.at - this.startedAt,
      width: frame.width,
      height: frame.height,
      bytes: frame.data.length,
    };
    this.frames.push(record);
    this.pending++;
    this.writes = this.writes.then(async () => {
      try {
        await this.write(record.file, frame.data);
      } catch {
        void this.stop('write_failed');
      } finally {
        this.pending--;
      }
    });
  }

  private write(name: string, data: string | Uint8Array): Promise<void> {
    return writeOutput(join(this.options.dir, name), data, {
      overwrite: this.options.overwrite,
      ...(this.options.policy ? { policy: this.options.policy } : {}),
    });
  }

  /** Ends the recording (idempotent: the first reason stays) and writes the manifest and WebM. */
  stop(reason: EndReason): Promise<RecordingResult> {
    this.ending ??= this.finish(reason);
    return this.ending;
  }

  private async finish(reason: EndReason): Promise<RecordingResult> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.deferTimer);
    this.deferTimer = undefined;
    // the page's last state is kept on a stop (not past the cap, nor from a tab already gone)
    const last = this.deferred;
    this.deferred = undefined;
    if (last && reason === 'stopped' && this.bytes + last.data.length <= this.options.maxBytes) this.keep(last);
    await this.writes;
    const endedAt = Date.now();
    const manifest = join(this.options.dir, 'manifest.json');
    const body = {
      version: 1,
      tab: this.page.id,
      url: this.url,
      startedAt: new Date(this.startedAt).toISOString(),
      endedAt: new Date(endedAt).toISOString(),
      reason,
      fps: this.options.fps,
      maxSize: this.options.maxSize,
      bytes: this.bytes,
      dropped: this.dropped,
      frames: this.frames,
    };
    let note: string | null = null;
    try {
      await this.write('manifest.json', `${JSON.stringify(body, null, 2)}\n`);
    } catch (error) {
      note = `manifest.json could not be written: ${(error as Error).message}`;
    }
    const webm = note === null ? await this.encode() : { path: null, note: null };
    return {
      tab: this.page.id,
      dir: this.options.dir,
      manifest,
      frames: this.frames.length,
      bytes: this.bytes,
      durationMs: endedAt - this.startedAt,
      reason,
      webm: webm.path,
      note: note ?? webm.note,
    };
  }

  /** The WebM, when ffmpeg is on the PATH: encoded beside the frames, then put in place through the guard. */
  private async encode(): Promise<{ path: string | null; note: string | null }> {
    const { ffmpeg, webm } = this.options;
    if (!ffmpeg || !webm) return { path: null, note: 'ffmpeg is not on the PATH: frames and manifest.json only' };
    if (this.frames.length === 0) return { path: null, note: 'no frames were recorded' };
    const lines = ['ffconcat version 1.0'];
    this.frames.forEach((frame, index) => {
      const next = this.frames[index + 1];
      lines.push(
        `file '${frame.file}'`,
        `duration ${((next ? next.t - frame.t : 1000 / this.options.fps) / 1000).toFixed(3)}`,
      );
    });
    // the concat demuxer takes the last file's duration only when the file is listed once more
    const last = this.frames.at(-1);
    if (last) lines.push(`file '${last.file}'`);
    const list = join(this.options.dir, 'frames.ffconcat');
    const temp = join(this.options.dir, `.encoding-${process.pid}.webm`);
    try {
      await this.write('frames.ffconcat', `${lines.join('\n')}\n`);
      const failure = await encodeWebm(ffmpeg, list, temp);
      if (failure) return { path: null, note: failure };
      placeFile(temp, webm, this.options.overwrite);
      return { path: webm, note: null };
    } catch (error) {
      return { path: null, note: `the WebM could not be written: ${(error as Error).message}` };
    } finally {
      rmSync(temp, { force: true });
    }
  }
}
