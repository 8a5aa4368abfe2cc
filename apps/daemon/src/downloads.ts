import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { type Browser, CommandCancelledError, currentCommandScope } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { type PathPolicy, confinePath, openOutput } from '@argus/security';
import type { BrowserManager } from './browser-manager.js';
import { makeDirs } from '@argus/protocol/make-dirs';

export interface DownloadRecord {
  id: string;
  url: string;
  filename: string;
  state: 'inProgress' | 'completed' | 'canceled';
  path: string | null;
  bytes: number;
  totalBytes: number;
  /** Chrome's own file (named by guid) until it is moved to its final name. */
  chromePath?: string;
  frameId: string;
  /** Reported to a caller already (by `download` or `wait --download`). */
  claimed: boolean;
}

const KEPT = 200;

/**
 * Browser-wide download tracking: points Chrome's download behaviour at one folder
 * (`allowAndName`, files named by guid), listens on the root session, and moves each finished file
 * to its suggested name. Event driven: waiters are woken by downloadProgress events.
 */
export class DownloadTracker {
  private readonly records = new Map<string, DownloadRecord>();
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly dir: string,
    manager: BrowserManager,
  ) {
    // browser-wide, needs no page: set up while the first tab attaches
    manager.onStart((browser) => this.attach(browser), { early: true });
  }

  private async attach(browser: Browser): Promise<void> {
    makeDirs(this.dir, 0o700);
    const root = browser.router.root;
    root.on('Browser.downloadWillBegin', (event) => {
      this.records.set(event.guid, {
        id: event.guid,
        url: event.url,
        filename: event.suggestedFilename,
        state: 'inProgress',
        path: null,
        bytes: 0,
        totalBytes: 0,
        frameId: event.frameId,
        claimed: false,
      });
      while (this.records.size > KEPT) this.records.delete(this.records.keys().next().value as string);
      this.wake();
    });
    root.on('Browser.downloadProgress', (event) => {
      const record = this.records.get(event.guid);
      if (!record) return;
      record.bytes = event.receivedBytes;
      record.totalBytes = event.totalBytes;
      if (event.state === 'completed') {
        record.chromePath = event.filePath ?? join(this.dir, event.guid);
        record.path = this.finalise(record);
        record.state = 'completed';
      } else if (event.state === 'canceled') record.state = 'canceled';
      this.wake();
    });
    await root.send('Browser.setDownloadBehavior', {
      behavior: 'allowAndName',
      downloadPath: this.dir,
      eventsEnabled: true,
    });
  }

  /** Moves Chrome's guid-named file to the suggested name (never overwriting another file). */
  private finalise(record: DownloadRecord): string {
    const from = record.chromePath as string;
    const safe = basename(record.filename || 'download').replace(/[^\w.\- ]/g, '_') || 'download';
    return moveUnique(from, this.dir, safe);
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  list(): DownloadRecord[] {
    return [...this.records.values()];
  }

  /**
   * Moves a finished download to a caller-chosen file or directory (already confined): into a
   * directory under a free name, else onto the file (an existing one only with `overwrite`). The
   * file is first copied into a temp file opened without following links beside the target (the
   * downloads dir may be on another filesystem), then put in place by link or rename.
   */
  async moveTo(
    record: DownloadRecord,
    target: string,
    options: { overwrite: boolean; policy: PathPolicy },
  ): Promise<void> {
    if (!record.path) return;
    const isDir = existsSync(target) && statSync(target).isDirectory();
    let dest = target;
    if (isDir) {
      const ext = extname(record.path);
      const stem = basename(record.path).slice(0, basename(record.path).length - ext.length);
      dest = join(target, basename(record.path));
      for (let n = 1; existsSync(dest); n++) dest = join(target, `${stem} (${n})${ext}`);
      dest = confinePath(dest, options.policy);
    }
    const output = await openOutput(dest, { overwrite: options.overwrite && !isDir, policy: options.policy });
    try {
      await copyInto(record.path, output.handle);
      await output.commit();
    } finally {
      await output.abort();
    }
    rmSync(record.path, { force: true });
    record.path = dest;
  }

  /**
   * Waits for a download that matches `pick` (checked now and on every download event) to finish.
   * Rejects with `timeout` or when it is cancelled, by the browser or by the command's caller going
   * away (its command scope: then it claims nothing more).
   */
  waitFor(pick: (record: DownloadRecord) => boolean, timeoutMs: number, what: string): Promise<DownloadRecord> {
    const signal = currentCommandScope()?.signal;
    return new Promise((resolve, reject) => {
      let chosen: DownloadRecord | undefined;
      const cleanup = () => {
        this.waiters.delete(check);
        clearTimeout(timer);
        signal?.removeEventListener('abort', abandon);
      };
      const abandon = () => {
        cleanup();
        reject(new CommandCancelledError());
      };
      const check = () => {
        chosen ??= this.list().find(pick);
        if (!chosen) return;
        chosen.claimed = true;
        if (chosen.state === 'completed') {
          cleanup();
          resolve(chosen);
        } else if (chosen.state === 'canceled') {
          cleanup();
          reject(
            new ArgusError('navigation_failed', `The download of ${chosen.url} was cancelled by the browser.`, {
              details: { id: chosen.id },
            }),
          );
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        const progress = chosen ? ` (${chosen.bytes} of ${chosen.totalBytes || '?'} bytes so far)` : ' (none started)';
        reject(
          new ArgusError(
            'timeout',
            `${what} did not finish within ${timeoutMs} ms${progress}. Retry with a longer --timeout-ms, or check \`argus downloads\`.`,
          ),
        );
      }, timeoutMs);
      if (signal?.aborted) return abandon();
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiters.add(check);
      check();
    });
  }
}

/** Copies a file into an open handle in 1 MiB chunks. */
async function copyInto(source: string, target: FileHandle): Promise<void> {
  const input = await open(source, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const { bytesRead } = await input.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      await target.write(buffer, 0, bytesRead);
    }
  } finally {
    await input.close();
  }
}

function moveUnique(from: string, dir: string, name: string): string {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  let dest = join(dir, name);
  for (let n = 1; existsSync(dest) && dest !== from; n++) dest = join(dir, `${stem} (${n})${ext}`);
  if (dest !== from) renameSync(from, dest);
  return dest;
}

const trackers = new WeakMap<BrowserManager, DownloadTracker>();

/** One tracker per browser manager, created on first use (the daemon creates it at start-up). */
export function downloadsFor(manager: BrowserManager, dir: string): DownloadTracker {
  let tracker = trackers.get(manager);
  if (!tracker) {
    tracker = new DownloadTracker(dir, manager);
    trackers.set(manager, tracker);
  }
  return tracker;
}

export function publicRecord(record: DownloadRecord): Omit<DownloadRecord, 'chromePath' | 'frameId' | 'claimed'> {
  const { id, url, filename, state, path, bytes, totalBytes } = record;
  return { id, url, filename, state, path, bytes, totalBytes };
}
