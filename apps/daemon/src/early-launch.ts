import { Socket } from 'node:net';
import { resolve } from 'node:path';
import { type LaunchOptions, launchEarly } from '@argus/cdp/launch';
import { type ChromeHandOver, adoptHandedChrome, launchForHandOver } from '@argus/cdp/launch-handover';
import {
  type RawConfig,
  envLayer,
  flagsFromEnv,
  getPath,
  isPlainObject,
  mergeConfig,
  projectConfigFile,
  readConfigFile,
  userConfigFile,
} from '@argus/protocol/config-files';
import { LAUNCH_CUE_ENV } from '@argus/protocol/daemon-state';
import { projectRoot } from '@argus/security/paths';

/** The project a daemon serves: ARGUS_WORKSPACE, else the git top-level of its working directory (`cwd`). */
export function daemonWorkspace(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  return resolve(env.ARGUS_WORKSPACE ?? projectRoot(cwd));
}

/** A client starts the daemon for a command that will want the browser: launch it at once (ARGUS_PRELAUNCH=0: at the first command). */
export function prelaunchWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.ARGUS_PRELAUNCH !== '0';
}

/** The `chrome` settings of every layer (user file < project file < env < flags), read raw like quickStateDir. */
function rawChromeSettings(workspace: string, env: NodeJS.ProcessEnv): RawConfig | undefined {
  let merged: RawConfig = {};
  try {
    for (const layer of [
      readConfigFile(userConfigFile(env)),
      readConfigFile(projectConfigFile(workspace, env)),
      envLayer(env).config,
      flagsFromEnv(env),
    ])
      merged = mergeConfig(merged, layer);
  } catch {
    return undefined; // a broken file: the daemon reports it
  }
  const chrome = getPath(merged, 'chrome') ?? {};
  return isPlainObject(chrome) ? chrome : undefined;
}

/**
 * The launch a daemon will ask for, from the raw settings (no zod: this runs before anything heavy
 * loads). Not validated: the BrowserManager's launch, from the validated configuration, adopts the
 * browser only when it resolves to the same binary, flags and headless mode (launchKey in
 * @argus/cdp), and kills it otherwise. Connect mode, a persistent profile and a headed browser are
 * left to the daemon.
 */
function earlyLaunchOptions(env: NodeJS.ProcessEnv, cued = false): LaunchOptions | undefined {
  if (!cued && !prelaunchWanted(env)) return undefined;
  const chrome = rawChromeSettings(daemonWorkspace(env), env);
  if (!chrome || chrome.cdpUrl !== undefined || chrome.profile !== undefined) return undefined;
  const { path, flags = [], headless = true } = chrome;
  if (headless !== true || !Array.isArray(flags) || !flags.every((flag) => typeof flag === 'string')) return undefined;
  if (path !== undefined && typeof path !== 'string') return undefined;
  return {
    headless: true,
    pipe: true,
    extraFlags: flags as string[],
    ...(path ? { env: { ...env, CHROME_PATH: path } } : {}),
  };
}

/**
 * Starts the daemon's browser before the daemon's modules load (about two thirds of the process's
 * start-up, measured with CPU profiles), so Chromium's own start runs alongside them; or adopts the
 * one the process that started this daemon launched for it (chromeForDaemon).
 */
export function launchBrowserEarly(env: NodeJS.ProcessEnv = process.env): void {
  if (adoptHandedChrome(env)) return;
  const options = earlyLaunchOptions(env);
  if (options) launchEarly(options);
  else listenForLaunchCue(env);
}

/**
 * Launches the daemon's browser now, as an early launch its first command adopts: for a daemon that
 * runs inside a client's process (argus-mcp hosting it), whose agent's first browser call came while
 * the daemon's modules still load. The same launch a launch cue starts in a daemon process.
 */
export function launchBrowserNow(env: NodeJS.ProcessEnv = process.env): void {
  const options = earlyLaunchOptions(env, true);
  if (options) launchEarly(options);
}

let cue: { socket: Socket; cued: boolean } | undefined;

/**
 * A daemon started without Chromium (ARGUS_PRELAUNCH=0: an MCP server's prestart) by a starter that
 * may soon want one: it passes a descriptor (ARGUS_LAUNCH_CUE) and writes a byte to it when its
 * agent's first browser call comes while this process is still loading. Chromium then starts at
 * once, as an early launch the first command adopts, instead of after the daemon is up and that
 * command has reached it (~0.15-0.2 s later on a cold start, issue 16). Waiting costs nothing (an
 * unreferenced socket); the cue is heard only until the daemon begins serving (endLaunchCue), so
 * it can never race a launch of the daemon's own.
 */
function listenForLaunchCue(env: NodeJS.ProcessEnv): void {
  const fd = Number(env[LAUNCH_CUE_ENV]);
  // not inherited by Chromium or anything else this process starts
  delete env[LAUNCH_CUE_ENV];
  if (!Number.isInteger(fd) || fd < 3) return;
  let socket: Socket;
  try {
    socket = new Socket({ fd, readable: true, writable: false });
  } catch {
    return; // not a descriptor this process has: no cue
  }
  const listening = { socket, cued: false };
  cue = listening;
  socket.unref();
  socket.on('error', () => socket.destroy());
  socket.once('end', () => socket.destroy());
  socket.once('data', () => {
    socket.destroy();
    if (cue !== listening) return;
    listening.cued = true;
    const options = earlyLaunchOptions(env, true);
    if (options) launchEarly(options);
  });
}

/**
 * The daemon is about to serve: from now on its commands launch the browser, so a cue is no longer
 * heard. Returns whether one came (its launch is under way, and the daemon adopts it at once).
 */
export function endLaunchCue(): boolean {
  const listening = cue;
  cue = undefined;
  listening?.socket.destroy();
  return listening?.cued ?? false;
}

/**
 * In a client about to start the daemon for a command (the CLI's first module): launches the
 * daemon's browser now, to be handed to it (launch-handover in @argus/cdp). Chromium then starts
 * before this process's own modules and the daemon's Node load, instead of after.
 */
export function chromeForDaemon(env: NodeJS.ProcessEnv = process.env): ChromeHandOver | undefined {
  const options = earlyLaunchOptions(env);
  return options ? launchForHandOver(options) : undefined;
}

/**
 * For `argus restart`, in the CLI: the next daemon's browser, launched while the old daemon still
 * saves its session and shuts down (its Chromium start then runs alongside that, instead of after),
 * to be handed to the new daemon like chromeForDaemon's. Only with a temporary profile of its own: a
 * profile directory among the flags (`--user-data-dir`) is still the old Chrome's, locked by it and
 * written at its exit (its cookies), so that launch waits for the new daemon as before.
 */
export function chromeForNextDaemon(env: NodeJS.ProcessEnv = process.env): ChromeHandOver | undefined {
  const options = earlyLaunchOptions(env);
  if (!options || options.extraFlags?.some((flag) => /^--?user-data-dir(=|$)/.test(flag))) return undefined;
  return launchForHandOver(options);
}
