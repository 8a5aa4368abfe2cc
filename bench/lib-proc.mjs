// CPU time of processes from /proc (Linux): the benches' measure of what a call or a start costs
// the machine, next to the time it takes.
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS = 100;

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
    const fields = statFields(pid);
    const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]];
    return ((Number(user) + Number(system)) * 1000) / TICKS;
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
      if (Number(fields[2]) === pgid) total += ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
    } catch {
      // exited meanwhile
    }
  }
  return total;
}
