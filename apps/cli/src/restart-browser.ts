import type { DaemonHandOver } from '@argus/client/daemon-spawn';
import { startDaemonEarly } from '@argus/client/daemon-spawn';
import { daemonEntry } from '@argus/plugin/daemon-entry';

/*
 * `argus restart`: the new daemon's Chromium is launched at the CLI's first line (entry.ts,
 * chromeForNextDaemon), while the old daemon still saves its session and shuts down, and handed to the
 * new daemon when it is spawned. Timed before (daemon log, /proc start times): the old daemon's save
 * and stop and the new daemon's Node start came first, then Chromium's own start (~1.4 s idle, several
 * seconds on a loaded machine), one after the other.
 */

let held: DaemonHandOver | undefined;

/** Keeps the browser launched for the next daemon until the old one has exited. */
export function holdNextBrowser(handOver: DaemonHandOver | undefined): void {
  held?.release();
  held = handOver;
}

/**
 * The old daemon has exited: starts the new one now with the held browser (the connection that
 * follows adopts this start). Without a held browser, or when a daemon runs again (another client
 * started one meanwhile), nothing is started here and the held browser is let go (its watchdog ends it
 * once no process holds its pipe).
 */
export function startNextDaemon(): void {
  const handOver = held;
  held = undefined;
  if (!handOver) return;
  if (!startDaemonEarly({ daemonEntry: daemonEntry(), handOver: () => handOver })) handOver.release();
}
