#!/usr/bin/env node
// `pnpm bench <name>` runs bench/<name>-bench.mjs (or bench/<name>.mjs). Without a name, lists them.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const scripts = readdirSync(here).filter(
  (file) => file.endsWith('.mjs') && file !== 'run.mjs' && !file.startsWith('lib-'),
);
const [name, ...rest] = process.argv.slice(2);
const match = name && scripts.find((file) => file === `${name}-bench.mjs` || file === `${name}.mjs`);
if (!match) {
  console.log(
    `usage: pnpm bench <name>\navailable: ${scripts.map((file) => file.replace(/(-bench)?\.mjs$/, '')).join(', ')}`,
  );
  process.exit(name ? 2 : 0);
}
const result = spawnSync(process.execPath, [join(here, match), ...rest], { stdio: 'inherit' });
process.exit(result.status ?? 1);
