import { ArgusError } from '@argus/protocol/errors';
import { connectCri } from './cri-transport.js';
import { type AnyChromeProcess, exitReport } from './launch.js';
import { connectPipe } from './pipe-transport.js';
import type { Transport } from './transport.js';

/** The transport to a Chrome this process launched (or was handed): its pipe if it has one, else its port. */
export function connectChrome(chrome: AnyChromeProcess): Promise<Transport> {
  return chrome.pipe ? Promise.resolve(connectPipe(chrome.pipe)) : connectCri(chrome.wsEndpoint);
}

/** How long a failed start waits to learn whether Chrome exited (the cause then) or still runs. */
const EXIT_WAIT_MS = 500;

/**
 * After connecting to a launched Chrome (or its first commands) failed: kills it, and returns the
 * error to report: when Chrome itself exited, that and its last output (on a pipe, nothing else
 * says so: the commands only see the pipe close); else the failure as it came.
 */
export async function startFailure(chrome: AnyChromeProcess, error: unknown): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    chrome.exited,
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), EXIT_WAIT_MS))),
  ]);
  clearTimeout(timer);
  await chrome.kill(0);
  if (!exit) return error;
  return new ArgusError('browser_crashed', exitReport(exit, chrome.lastOutput()), { cause: error });
}
