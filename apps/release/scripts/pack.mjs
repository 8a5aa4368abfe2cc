#!/usr/bin/env node
// Builds the published `argus` npm package and packs it: `pnpm pack:argus` (after `pnpm build`).
//   node apps/release/scripts/pack.mjs [--out DIR]   prints the tarball's path on stdout
// Built from the workspace's own entries (no copies): the CLI (apps/cli), the MCP stdio server and
// the daemon process (apps/plugin), each a CommonJS bundle its small entry runs with V8's code cache,
// and the typed client (apps/release/src/client.ts) and OpenCode plugin as ES modules. Every @argus/*
// package is inlined; the third-party runtime dependencies the ES modules import stay external and are
// declared with the exact versions of the pnpm catalog, so `npm install argus-<v>.tgz` needs nothing
// from this workspace (the CommonJS bundles inline all but the daemon's run-time externals).
import { builtinModules } from 'node:module';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { codeCacheBundle } from '@argus/bundle-plugins';
import { build } from 'tsup';

const here = dirname(fileURLToPath(import.meta.url));
const release = join(here, '..');
const root = join(release, '..', '..');

/** Third-party packages the bundle imports at run time; anything else imported is inlined. */
const RUNTIME_DEPENDENCIES = [
  '@modelcontextprotocol/sdk',
  '@mozilla/readability',
  '@puppeteer/browsers',
  '@trpc/client',
  '@trpc/server',
  // native (the journal): installed by npm on the user's machine (prebuilt or built), never bundled
  'better-sqlite3',
  'chrome-remote-interface',
  'cockatiel',
  // required by name on first use (the canvas lint's colours): no import for the metafile to show
  'culori',
  'fast-xml-parser',
  'ipaddr.js',
  'linkedom',
  'p-limit',
  'picomatch',
  'pino',
  'robots-parser',
  'turndown',
  'turndown-plugin-gfm',
  'undici',
  'ws',
  'zod',
];
/**
 * Native runtime dependencies declared optional: where no prebuilt binary downloads and no compiler
 * is present, `npm install` skips them instead of failing, and the daemon runs without them (the
 * journal reports itself not writing in `argus status`).
 */
const OPTIONAL_NATIVE = ['better-sqlite3'];
/**
 * Imported only by `argus/opencode`: an optional peer, so users without OpenCode do not install it
 * (and its effect/msgpackr tree); an OpenCode project has it (OpenCode installs it for its plugins).
 */
const OPTIONAL_PEERS = ['@opencode-ai/plugin'];
/**
 * What the daemon's CommonJS bundle leaves outside (apps/plugin builds it with the same list); all
 * else is inlined there, as a package left outside would be `require`d, and an ES-module-only one
 * (p-limit) does not come back from `require` as its importers expect.
 */
const DAEMON_RUNTIME_EXTERNALS = JSON.parse(readFileSync(join(root, 'apps/plugin/daemon-externals.json'), 'utf8'));
const escapeRegExp = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** ws's optional native speed-ups: required inside try, never installed by this package. */
const OPTIONAL_SPEEDUPS = ['bufferutil', 'utf-8-validate'];

/** The `catalog:` block of pnpm-workspace.yaml: `name: version` lines, names optionally quoted. */
export function readCatalog(text) {
  const catalog = new Map();
  let inside = false;
  for (const line of text.split('\n')) {
    if (/^catalog:\s*$/.test(line)) inside = true;
    else if (inside && /^\S/.test(line)) break;
    else if (inside) {
      const match = /^\s+["']?([^"':\s]+)["']?:\s*["']?([^"'\s]+)["']?\s*$/.exec(line);
      if (match) catalog.set(match[1], match[2]);
    }
  }
  return catalog;
}

/** `@trpc/server/adapters/ws` -> `@trpc/server`, `ws` -> `ws`; undefined for Node built-ins and relative paths. */
function packageOf(specifier) {
  if (
    specifier.startsWith('.') ||
    specifier.startsWith('/') ||
    specifier.startsWith('node:') ||
    builtinModules.includes(specifier.split('/')[0])
  )
    return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Bare package imports in built JS (from esbuild's metafile) and in the .d.ts files (by scanning). */
function importedPackages(outDir) {
  const found = new Set();
  for (const format of ['esm', 'cjs']) {
    const metafile = JSON.parse(readFileSync(join(outDir, `metafile-${format}.json`), 'utf8'));
    for (const output of Object.values(metafile.outputs))
      for (const entry of output.imports) if (entry.external && packageOf(entry.path)) found.add(packageOf(entry.path));
  }
  for (const file of readdirSync(outDir).filter((name) => name.endsWith('.d.ts'))) {
    for (const match of readFileSync(join(outDir, file), 'utf8').matchAll(
      /\bfrom\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const name = packageOf(match[1] ?? match[2]);
      if (name) found.add(name);
    }
  }
  return found;
}

/** `@argus/<name>[/<sub>]` -> its TypeScript source, for the types of the client entry. */
function sourcePaths() {
  const paths = {};
  for (const [name, dir] of [
    ['protocol', 'packages/protocol'],
    ['security', 'packages/security'],
    ['client', 'packages/client'],
    ['plugin', 'apps/plugin'],
  ]) {
    paths[`@argus/${name}`] = [join(root, dir, 'src/index.ts')];
    paths[`@argus/${name}/*`] = [join(root, dir, 'src/*.ts')];
  }
  return paths;
}

export async function packArgus({ out = join(release, 'dist') } = {}) {
  const catalog = readCatalog(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8'));
  // The stage lives under apps/release (tsup loads TypeScript from the build's working directory);
  // its own name, so a test's pack and a user's never share one. Only the tarball goes to `out`.
  mkdirSync(out, { recursive: true });
  mkdirSync(join(release, 'dist'), { recursive: true });
  const stage = mkdtempSync(join(release, 'dist', 'stage-'));
  try {
    return await packStage(stage, out, catalog);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

async function packStage(stage, out, catalog) {
  const dist = join(stage, 'dist');
  mkdirSync(dist);
  const self = JSON.parse(readFileSync(join(release, 'package.json'), 'utf8'));

  // tsup externalizes the dependencies of the package.json in the current directory, types included:
  // build from the stage, whose manifest has none yet, so the @argus/* packages are inlined in .d.ts too.
  writeFileSync(join(stage, 'package.json'), '{ "type": "module" }\n');
  const cwd = process.cwd();
  process.chdir(stage);
  try {
    const common = {
      outDir: dist,
      platform: 'node',
      target: 'node20',
      bundle: true,
      tsconfig: join(release, 'tsconfig.json'),
      metafile: true,
      sourcemap: false,
      minify: false,
      clean: false,
      silent: true,
    };
    await build({
      ...common,
      // The processes' entries: each runs its CommonJS bundle (built below) with V8's code cache (the
      // CLI's by way of argus-boot.cjs, which starts the daemon and Chromium first).
      entry: {
        argus: join(root, 'apps/cli/src/launcher.ts'),
        'argus-mcp': join(root, 'apps/plugin/src/argus-mcp.ts'),
        'daemon-main': join(root, 'apps/plugin/src/daemon-main.ts'),
        client: join(release, 'src/client.ts'),
        // the OpenCode plugin; the module exports only ArgusPlugin (OpenCode calls every export as a plugin)
        opencode: join(root, 'apps/plugin/src/opencode.ts'),
      },
      format: ['esm'],
      splitting: true,
      noExternal: [/^@argus\//],
      external: [...RUNTIME_DEPENDENCIES, ...OPTIONAL_PEERS].map(
        (name) => new RegExp(`^${name.replace('/', '\\/')}(?:/|$)`),
      ),
      // Types from the workspace sources (mapped below), so the .d.ts inlines them instead of naming @argus/*.
      dts: {
        entry: { client: join(release, 'src/client.ts'), opencode: join(root, 'apps/plugin/src/opencode.ts') },
        compilerOptions: { paths: sourcePaths() },
      },
    });
    // The CLI, the daemon and the MCP server as CommonJS files (as the workspace builds them), in one
    // flat dist/ (the CLI and the MCP server find daemon-main.js beside them: @argus/plugin/daemon-entry).
    // Node 20 has a code cache only for scripts (@argus/security/code-cache).
    await build({
      ...common,
      entry: {
        argus: join(root, 'apps/cli/src/entry.ts'),
        'argus-boot': join(root, 'apps/cli/src/boot.ts'),
        daemon: join(root, 'apps/plugin/src/daemon-process.ts'),
        'argus-mcp': join(root, 'apps/plugin/src/mcp-process.ts'),
      },
      ...codeCacheBundle,
      // all but those (noExternal wins over external in tsup: exclude them here)
      noExternal: [new RegExp(`^(?!(?:${DAEMON_RUNTIME_EXTERNALS.map(escapeRegExp).join('|')})(?:/|$))`)],
      external: DAEMON_RUNTIME_EXTERNALS,
    });
  } finally {
    process.chdir(cwd);
  }

  const imported = importedPackages(dist);
  rmSync(join(dist, 'metafile-esm.json'));
  rmSync(join(dist, 'metafile-cjs.json'));
  for (const name of OPTIONAL_SPEEDUPS) imported.delete(name);
  const unknown = [...imported].filter(
    (name) => !RUNTIME_DEPENDENCIES.includes(name) && !OPTIONAL_PEERS.includes(name),
  );
  if (unknown.length)
    throw new Error(
      `pack: the bundle imports ${unknown.join(', ')}, which is not a declared runtime dependency; add it to RUNTIME_DEPENDENCIES (and the catalog) or inline it`,
    );
  const dependencies = {};
  const optionalDependencies = {};
  const peerDependencies = {};
  for (const name of [...imported].sort()) {
    const version = catalog.get(name);
    if (!version || !/^\d+\.\d+\.\d+$/.test(version))
      throw new Error(
        `pack: ${name} needs an exact version in the catalog of pnpm-workspace.yaml (found ${version ?? 'none'})`,
      );
    if (OPTIONAL_PEERS.includes(name)) peerDependencies[name] = version;
    else if (OPTIONAL_NATIVE.includes(name)) optionalDependencies[name] = version;
    else dependencies[name] = version;
  }

  cpSync(join(root, 'apps/cli/static'), dist, { recursive: true });
  // argus-mcp's tool specs as the workspace build computed them from the same manifest (pack runs
  // after `pnpm build`; apps/plugin's tool-specs test fails on a stale file): the server reads them
  // beside itself instead of converting every schema at each start, and computes them if they do not
  // match its manifest
  cpSync(join(root, 'apps/plugin/dist/daemon/tool-specs.json'), join(dist, 'tool-specs.json'));
  for (const bin of ['argus.js', 'argus-mcp.js']) {
    const file = join(dist, bin);
    const text = readFileSync(file, 'utf8');
    if (!text.startsWith('#!')) writeFileSync(file, `#!/usr/bin/env node\n${text}`);
    chmodSync(file, 0o755);
  }

  const manifest = {
    name: 'argus',
    version: self.version,
    description:
      'Argus: a browser runtime for AI agents. CLI (`argus`), MCP server (`argus-mcp`), daemon, typed client (`argus/client`) and OpenCode plugin (`argus/opencode`).',
    type: 'module',
    bin: { argus: './dist/argus.js', 'argus-mcp': './dist/argus-mcp.js' },
    exports: {
      './client': { types: './dist/client.d.ts', import: './dist/client.js' },
      './opencode': { types: './dist/opencode.d.ts', import: './dist/opencode.js' },
      './package.json': './package.json',
    },
    files: ['dist'],
    engines: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines,
    dependencies,
    optionalDependencies,
    peerDependencies,
    peerDependenciesMeta: Object.fromEntries(Object.keys(peerDependencies).map((name) => [name, { optional: true }])),
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(release, 'package-readme.md'), join(stage, 'README.md'));

  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: stage,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const tarball = join(out, packed.filename);
  if (!existsSync(tarball)) throw new Error(`pack: npm pack did not write ${tarball}`);
  return {
    tarball,
    size: packed.size,
    unpackedSize: packed.unpackedSize,
    files: packed.entryCount,
    dependencies,
    peerDependencies,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { out } = parseArgs({ options: { out: { type: 'string' } } }).values;
  const result = await packArgus(out === undefined ? {} : { out: resolve(out) });
  process.stderr.write(
    `pack: ${result.files} files, ${(result.size / 1024).toFixed(0)} KiB packed (${(result.unpackedSize / 1024).toFixed(0)} KiB unpacked); dependencies ${Object.entries(
      result.dependencies,
    )
      .map(([n, v]) => `${n}@${v}`)
      .join(', ')}\n`,
  );
  process.stdout.write(`${result.tarball}\n`);
}
