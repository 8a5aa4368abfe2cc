// CPU time of processes from /proc (Linux): the benches' measure of what a call or a start costs
// the machine, next to the time it takes.
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** Milliseconds of the clock-tick fields at `at` and `at + 1` (user, system) of a stat line's fields. */
function ticksMs(fields, at) {
  return ((Number(fields[at]) + Number(fields[at + 1])) * 1000) / TICKS;
}

function statFields(pid) {
  // the command name (field 2) may hold spaces: the fields after it are split
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
}

/**
 * CPU time (user + system, ms) a process has used so far, or (`children`) its children's that it
 * waited for; 0 for a process that is gone.
 */
export function processCpuMs(pid, { children = false } = {}) {
  try {
    // utime and stime (fields 14-15 of stat(5)), or cutime and cstime (16-17)
    return ticksMs(statFields(pid), children ? 13 : 11);
  } catch {
    return 0;
  }
}

/** CPU time so far (ms) of the processes of a process group: a Chromium started detached leads its own. */
export function groupCpuMs(pgid) {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(entry);
      if (Number(fields[2]) === pgid) total += ticksMs(fields, 11);
    } catch {
      // exited meanwhile
    }
  }
  return total;
}
