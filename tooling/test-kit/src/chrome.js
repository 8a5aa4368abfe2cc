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
  return prefixes.some((prefix) => flag.startsWith(prefix)) && basename(flag.slice('--user-data-dir='.length)).startsWith(PROFILE_PREFIX);
}

/**
 * Process state letter from /proc/<pid>/stat (`R`, `S`, `Z`, ...); the command name in parentheses
 * may itself contain spaces and parentheses, so read after the last `)`.
 * @param {string} pid
 */
function processState(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
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
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  /** @type {ArgusChromeProcess[]} */
  const found = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const flag = args.find((arg) => isArgusProfileFlag(arg, prefixes));
      if (!flag || processState(entry) === 'Z') continue;
      found.push({ pid: Number(entry), cmdline: args.join(' '), userDataDir: flag.slice('--user-data-dir='.length) });
    } catch {
      // The process exited while we looked at it.
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
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
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  /** @type {number[]} */
  const found = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // after the command name: state ppid pgrp ...
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found.sort((a, b) => a - b);
}
