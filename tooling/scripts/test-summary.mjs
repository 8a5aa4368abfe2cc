#!/usr/bin/env node
// Sums the vitest JSON reports every workspace package writes (.vitest-report.json) and prints one
// closing line `N passed, N failed` (plus skipped). `--clean` removes old reports before a run.
// Fails when a package that has a test script wrote no report, so no suite can silently vanish.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPORT = '.vitest-report.json';

function packages() {
  const dirs = [];
  for (const group of ['packages', 'apps', 'tooling']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      const manifest = join(base, name, 'package.json');
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
      if (pkg.scripts?.test) dirs.push({ dir: join(base, name), name: pkg.name });
    }
  }
  return dirs;
}

if (parseArgs({ options: { clean: { type: 'boolean', default: false } } }).values.clean) {
  for (const { dir } of packages()) rmSync(join(dir, REPORT), { force: true });
  process.exit(0);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const { dir, name } of packages()) {
  const file = join(dir, REPORT);
  if (!existsSync(file)) {
    missing.push(name);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`  ${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
if (missing.length)
  console.error(`no test report from: ${missing.join(', ')} (does its test script pass --outputFile.json=${REPORT}?)`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
