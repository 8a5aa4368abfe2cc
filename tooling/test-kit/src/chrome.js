import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';

/** Directory-name prefix of every Chrome profile Argus creates in os.tmpdir(). */
export const PROFILE_PREFIX = 'argus-chrome-';

/** The `--user-data-dir=` prefixes that mark an Argus-launched Chrome. */
function profileFlagPrefixes() {
  const dirs = new Set([tmpdir()]);
  try {
    dirs.add(realpathSync(tmpdir()));
  } catch {
    // tmpdir missing: the plain path is all we can match.
  }
  return [...dirs].map((dir) => `--user-data-dir=${dir}/`);
}

/**
 * An Argus profile: a directory named `argus-chrome-*` anywhere under the temp dir (directly, or in
 * a per-run temp dir made by the global setup).
 * @param {string} flag
 * @param {string[]} prefixes
 */
function isArgusProfileFlag(flag, prefixes) {
  return (
    prefixes.some((prefix) => flag.startsWith(prefix)) &&
    basename(flag.slice('--user-data-dir='.length)).startsWith(PROFILE_PREFIX)
  );
}

/**
 * @typedef {object} LiveProcess
 * @property {number} pid
 * @property {string[]} args its command line
 * @property {number} pgrp its process group
 */

/**
 * The fields of /proc/<pid>/stat after the command name: 0 the state, 1 the parent's pid, 2 the
 * process group, 19 the start time in clock ticks since boot. The command name (in parentheses) may
 * itself hold spaces and parentheses, so the fields are read after the last `)`. Throws when the
 * process is gone (Linux only).
 * @param {number} pid
 * @returns {string[]}
 */
export function procStatFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * The parent of a live process (Linux /proc).
 * @param {number} pid
 * @returns {number}
 */
export function parentOf(pid) {
  return Number(procStatFields(pid)[1]);
}

/**
 * Every live (non-zombie) process but this one, read from /proc (procStatFields). Linux only; []
 * where /proc is unavailable.
 * @returns {LiveProcess[]}
 */
export function liveProcesses() {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  /** @type {LiveProcess[]} */
  const found = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const [state, , pgrp] = procStatFields(Number(entry));
      if (state === 'Z') continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      found.push({ pid: Number(entry), args, pgrp: Number(pgrp) });
    } catch {
      // The process exited while we looked at it.
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}

/**
 * @typedef {object} ArgusChromeProcess
 * @property {number} pid
 * @property {string} cmdline arguments joined by spaces
 * @property {string} userDataDir the profile directory
 */

/**
 * Live (non-zombie) processes launched with an Argus profile dir
 * (`--user-data-dir=<os.tmpdir()>/argus-chrome-*`), with their command lines. Linux only;
 * returns [] where /proc is unavailable.
 * @returns {ArgusChromeProcess[]}
 */
export function listArgusChromeProcesses() {
  const prefixes = profileFlagPrefixes();
  /** @type {ArgusChromeProcess[]} */
  const found = [];
  for (const { pid, args } of liveProcesses()) {
    const flag = args.find((arg) => isArgusProfileFlag(arg, prefixes));
    if (flag) found.push({ pid, cmdline: args.join(' '), userDataDir: flag.slice('--user-data-dir='.length) });
  }
  return found;
}

/**
 * Pids of live Argus-launched Chrome processes (see listArgusChromeProcesses).
 * @returns {number[]}
 */
export function listArgusChromes() {
  return listArgusChromeProcesses().map((proc) => proc.pid);
}

/**
 * Live (non-zombie) members of process group `pgid`. A launched Chrome leads its own group, and
 * its helpers (zygotes, renderers, utilities) stay in it, though not all carry the profile flag.
 * @param {number} pgid
 * @returns {number[]}
 */
export function processGroupMembers(pgid) {
  return liveProcesses()
    .filter((proc) => proc.pgrp === pgid)
    .map((proc) => proc.pid);
}
