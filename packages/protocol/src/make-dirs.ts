import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p`: makes `path` and its missing parents (each with `mode`), and is done when `path` is
 * already a directory. Node 20's `mkdirSync(path, { recursive: true })` never returns where making a
 * directory keeps failing with ENOENT although its parent exists (anything under /proc): measured,
 * `ARGUS_STATE_DIR=/proc/x argus goto …` spun at 100% CPU until killed. This fails with that error.
 */
export function makeDirs(path: string, mode = 0o777): void {
  const missing: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    try {
      mkdirSync(dir, { mode });
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statSync(dir).isDirectory()) break;
      if (code !== 'ENOENT' || dirname(dir) === dir) throw error;
      missing.push(dir);
    }
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, { mode });
    } catch (error) {
      // made meanwhile by another process
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(dir).isDirectory()) throw error;
    }
  }
}
