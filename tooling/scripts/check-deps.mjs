#!/usr/bin/env node
// Dependency-direction check for the Argus workspace (run by `pnpm lint` and CI).
//   node tooling/scripts/check-deps.mjs              check packages/* and apps/*
//   node tooling/scripts/check-deps.mjs --self-test  prove the rules catch violations
// Both package.json dependencies (incl. dev and peer) and `src/**` import specifiers count.
// Tooling packages (tooling/*, e.g. @argus/test-kit) are test/build helpers, not layers: exempt.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));

export const PROTOCOL = '@argus/protocol';
export const APP_NAMES = ['@argus/daemon', '@argus/cli', '@argus/extension', '@argus/plugin'];
/** Adapters that reach the browser only through the daemon. */
const ADAPTERS = ['@argus/cli', '@argus/plugin'];
const BROWSER_INTERNALS = ['@argus/cdp', '@argus/snapshot'];
/** Layered packages: the only @argus/* packages each may depend on. */
const LAYERS = {
  '@argus/security': [PROTOCOL],
  '@argus/cdp': [PROTOCOL, '@argus/security'],
  '@argus/snapshot': [PROTOCOL, '@argus/security', '@argus/cdp'],
  '@argus/client': [PROTOCOL, '@argus/security'],
  '@argus/providers': [PROTOCOL, '@argus/security'],
};
const DEFAULT_TOOLING = ['@argus/test-kit'];

/**
 * @typedef {{ target: string, where: string }} Edge  where: `package.json devDependencies` or `src/x.ts:12`
 * @typedef {{ name: string, group: 'packages' | 'apps', edges: Edge[] }} PackageInfo
 * @typedef {{ from: string, to: string, where: string, rule: string }} Violation
 */

/**
 * The rules, on plain data so --self-test can feed them fakes.
 * @param {PackageInfo[]} packages
 * @param {{ tooling?: string[] }} [options] names exempt as targets (test/build helpers)
 * @returns {Violation[]}
 */
export function findViolations(packages, { tooling = DEFAULT_TOOLING } = {}) {
  const apps = new Set([...APP_NAMES, ...packages.filter((pkg) => pkg.group === 'apps').map((pkg) => pkg.name)]);
  const exempt = new Set(tooling);
  /** @type {Violation[]} */
  const violations = [];
  for (const pkg of packages) {
    for (const { target: to, where } of pkg.edges) {
      if (to === pkg.name || exempt.has(to)) continue;
      const add = (rule) => violations.push({ from: pkg.name, to, where, rule });
      if (pkg.name === PROTOCOL) add('@argus/protocol is the root of the graph and depends on no other @argus package');
      else if (pkg.group === 'packages' && apps.has(to))
        add('a library under packages/ must not depend on an app under apps/');
      else if (ADAPTERS.includes(pkg.name) && BROWSER_INTERNALS.includes(to)) {
        add(
          'the CLI and the plugin are adapters: they reach the browser through the daemon (@argus/client), never through cdp or snapshot',
        );
      } else if (pkg.name in LAYERS && !LAYERS[/** @type {keyof typeof LAYERS} */ (pkg.name)].includes(to)) {
        add(
          `${pkg.name} may depend only on ${LAYERS[/** @type {keyof typeof LAYERS} */ (pkg.name)].join(', ')} (layers: protocol <- security <- cdp <- snapshot)`,
        );
      }
    }
  }
  return violations;
}

const SOURCE_FILE = /\.(?:ts|tsx|mts|cts|js|mjs|jsx)$/;
const IMPORT_PATTERNS = [
  /\bfrom\s*['"]([^'"]+)['"]/g, // import x from '...', export { x } from '...'
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // import('...')
  /\bimport\s*['"]([^'"]+)['"]/g, // import '...'
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // require('...')
];

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `@argus/cdp/sub/path` -> `@argus/cdp`. @param {string} specifier */
function argusPackage(specifier) {
  const match = /^@argus\/[^/]+/.exec(specifier);
  return match ? match[0] : undefined;
}

/** @argus imports of one file, ignoring comment lines. @param {string} file @returns {Edge[]} */
function importEdges(file) {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
  /** @type {Edge[]} */
  const edges = [];
  text.split('\n').forEach((line, index) => {
    if (line.trimStart().startsWith('//')) return;
    for (const pattern of IMPORT_PATTERNS) {
      for (const match of line.matchAll(pattern)) {
        const target = argusPackage(match[1] ?? '');
        if (target) edges.push({ target, where: `${relative(root, file)}:${index + 1}` });
      }
    }
  });
  return edges;
}

/** @returns {{ packages: PackageInfo[], tooling: string[] }} */
function readWorkspace() {
  /** @type {PackageInfo[]} */
  const packages = [];
  for (const group of /** @type {const} */ (['packages', 'apps'])) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const dir = join(groupDir, entry.name);
      const manifestFile = join(dir, 'package.json');
      if (!existsSync(manifestFile)) continue; // not created yet
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
      /** @type {Edge[]} */
      const edges = [];
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
        for (const dep of Object.keys(manifest[field] ?? {})) {
          const target = argusPackage(dep);
          if (target) edges.push({ target, where: `${relative(root, manifestFile)} ${field}` });
        }
      }
      for (const file of sourceFiles(join(dir, 'src'))) edges.push(...importEdges(file));
      packages.push({ name: manifest.name ?? `${group}/${entry.name}`, group, edges });
    }
  }
  const toolingDir = join(root, 'tooling');
  const tooling = [...DEFAULT_TOOLING];
  if (existsSync(toolingDir)) {
    for (const entry of readdirSync(toolingDir, { withFileTypes: true })) {
      const manifestFile = join(toolingDir, entry.name, 'package.json');
      if (entry.isDirectory() && existsSync(manifestFile)) {
        const name = JSON.parse(readFileSync(manifestFile, 'utf8')).name;
        if (typeof name === 'string') tooling.push(name);
      }
    }
  }
  return { packages, tooling };
}

function selfTest() {
  /** @param {string} name @param {'packages' | 'apps'} group @param {string[]} targets @returns {PackageInfo} */
  const pkg = (name, group, targets) => ({ name, group, edges: targets.map((target) => ({ target, where: 'fake' })) });
  const clean = [
    pkg('@argus/protocol', 'packages', ['@argus/test-kit']),
    pkg('@argus/security', 'packages', ['@argus/protocol']),
    pkg('@argus/cdp', 'packages', ['@argus/protocol', '@argus/security', '@argus/test-kit']),
    pkg('@argus/snapshot', 'packages', ['@argus/protocol', '@argus/security', '@argus/cdp']),
    pkg('@argus/client', 'packages', ['@argus/protocol']),
    pkg('@argus/daemon', 'apps', ['@argus/cdp', '@argus/snapshot', '@argus/protocol']),
    pkg('@argus/cli', 'apps', ['@argus/client', '@argus/protocol']),
  ];
  /** @type {Array<[string, PackageInfo[], string[]]>} */
  const cases = [
    ['clean graph', clean, []],
    [
      'protocol imports security',
      [pkg('@argus/protocol', 'packages', ['@argus/security'])],
      ['@argus/protocol -> @argus/security'],
    ],
    [
      'library depends on an app',
      [pkg('@argus/relay', 'packages', ['@argus/daemon'])],
      ['@argus/relay -> @argus/daemon'],
    ],
    [
      'library depends on an unlisted app',
      [pkg('@argus/relay', 'packages', ['@argus/web']), pkg('@argus/web', 'apps', [])],
      ['@argus/relay -> @argus/web'],
    ],
    ['cli imports cdp', [pkg('@argus/cli', 'apps', ['@argus/cdp'])], ['@argus/cli -> @argus/cdp']],
    [
      'plugin imports snapshot',
      [pkg('@argus/plugin', 'apps', ['@argus/snapshot'])],
      ['@argus/plugin -> @argus/snapshot'],
    ],
    ['security imports cdp', [pkg('@argus/security', 'packages', ['@argus/cdp'])], ['@argus/security -> @argus/cdp']],
    ['cdp imports snapshot', [pkg('@argus/cdp', 'packages', ['@argus/snapshot'])], ['@argus/cdp -> @argus/snapshot']],
    [
      'client imports cdp',
      [pkg('@argus/client', 'packages', ['@argus/cdp', '@argus/protocol'])],
      ['@argus/client -> @argus/cdp'],
    ],
  ];
  let failed = 0;
  for (const [label, input, expected] of cases) {
    const got = findViolations(input).map((v) => `${v.from} -> ${v.to}`);
    const ok = got.length === expected.length && expected.every((e) => got.includes(e));
    if (!ok) {
      failed += 1;
      console.error(`self-test FAILED: ${label}: expected [${expected.join(', ')}], got [${got.join(', ')}]`);
    }
  }
  if (failed > 0) process.exit(1);
  console.log(`dependency check self-test: ${cases.length} cases ok`);
}

function main() {
  if (parseArgs({ options: { 'self-test': { type: 'boolean', default: false } } }).values['self-test'])
    return selfTest();
  const { packages, tooling } = readWorkspace();
  const violations = findViolations(packages, { tooling });
  if (violations.length > 0) {
    console.error(
      `dependency check: ${packages.length} packages, ${violations.length} violation${violations.length === 1 ? '' : 's'}`,
    );
    for (const v of violations) console.error(`  ${v.from} -> ${v.to} (${v.where}): ${v.rule}`);
    process.exit(1);
  }
  console.log(`dependency check: ${packages.length} packages, 0 violations`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
