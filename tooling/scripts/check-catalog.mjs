#!/usr/bin/env node
// One version per dependency: every external dependency of every workspace package is taken from
// the pnpm catalog (`catalog:`), and every @argus/* dependency from the workspace (`workspace:*`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifests = [join(root, 'package.json'), join(root, 'bench', 'package.json')];
for (const group of ['packages', 'apps', 'tooling']) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir))
    if (existsSync(join(dir, name, 'package.json'))) manifests.push(join(dir, name, 'package.json'));
}

const problems = [];
for (const file of manifests.filter(existsSync)) {
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, spec] of Object.entries(pkg[field] ?? {})) {
      const want = name.startsWith('@argus/') ? 'workspace:*' : 'catalog:';
      if (spec !== want) problems.push(`${relative(root, file)} ${field}: ${name}@${spec} (use "${want}")`);
    }
  }
}
if (problems.length) {
  console.error(`catalog check: ${problems.length} dependencies not pinned through the catalog/workspace:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `catalog check: ${manifests.length} package.json files, every dependency from the catalog or the workspace`,
);
