import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DAEMON_RUNTIME_EXTERNALS } from '../tsup.config.js';

// The daemon process is one bundle (dist/daemon) with its dependencies inlined; what it still loads
// by name at run time must resolve from there, or a command fails only when first used (the
// providers' parsers, the canvas colours, the journal driver).
const bundle = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'daemon');
const files = readdirSync(bundle).filter((file) => file.endsWith('.js'));

interface Metafile {
  outputs: Record<
    string,
    { imports: { path: string; kind: string; external?: boolean }[]; inputs: Record<string, unknown> }
  >;
}

const metafile = (): Metafile => JSON.parse(readFileSync(join(bundle, 'metafile-esm.json'), 'utf8')) as Metafile;

/**
 * The source files of the chunks the daemon process runs before it is ready: its entry's static
 * imports, and the daemon itself (the chunk the entry imports once Chromium is launching, the one
 * holding the daemon package), with their static imports, transitively. With another entry and
 * main module: the same for that process (argus-mcp and its server, before its first answer).
 */
function loadedAtStart(entry = 'dist/daemon/daemon-main.js', main = 'daemon/dist/'): string[] {
  const { outputs } = metafile();
  const daemon = outputs[entry]!.imports.filter(
    ({ path, kind }) =>
      kind === 'dynamic-import' && Object.keys(outputs[path]?.inputs ?? {}).some((input) => input.includes(main)),
  );
  const seen = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output) || !outputs[output]) return;
    seen.add(output);
    for (const { path, kind, external } of outputs[output].imports)
      if (!external && kind === 'import-statement') visit(path);
  };
  visit(entry);
  for (const { path } of daemon) visit(path);
  return [...seen].flatMap((output) => Object.keys(outputs[output]!.inputs));
}

/** Bare package names the bundle's files import or require, from esbuild's metafile of the build. */
function importedPackages(): Set<string> {
  const meta = metafile();
  const names = new Set<string>();
  for (const output of Object.values(meta.outputs))
    for (const { path, external } of output.imports) {
      if (!external || path.startsWith('.') || path.startsWith('node:')) continue;
      if (builtinModules.includes(path.split('/')[0]!)) continue;
      const parts = path.split('/');
      names.add(path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  return names;
}

describe('the bundled daemon', () => {
  it('imports no package but the declared run-time externals', () => {
    expect(files).toContain('daemon-main.js');
    const unexpected = [...importedPackages()].filter((name) => !DAEMON_RUNTIME_EXTERNALS.includes(name));
    expect(unexpected).toEqual([]);
  });

  it('resolves every run-time external from where the bundle lies', () => {
    const require = createRequire(join(bundle, 'daemon-main.js'));
    const missing = DAEMON_RUNTIME_EXTERNALS.filter((name) => {
      if (name === 'bufferutil' || name === 'utf-8-validate') return false; // optional speed-ups of ws
      try {
        require.resolve(name);
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });

  it('starts without the design canvas (Yjs): it loads at the first canvas command', () => {
    const atStart = loadedAtStart();
    // the daemon's own code is there (the check sees the graph at all) ...
    expect(atStart.some((input) => input.includes('daemon/dist/'))).toBe(true);
    // ... and neither the canvas package nor Yjs is among them
    expect(atStart.filter((input) => /packages\/canvas\/|node_modules\/\.pnpm\/yjs@/.test(input))).toEqual([]);
    // the canvas is still in the bundle, in a chunk of its own
    const { outputs } = metafile();
    expect(
      Object.values(outputs).some((output) => Object.keys(output.inputs).some((input) => input.includes('/yjs@'))),
    ).toBe(true);
  });

  it('answers its first MCP request without compiling Ajv, ws or the tRPC client: they load at the first elicitation and connect', () => {
    const atStart = loadedAtStart('dist/daemon/argus-mcp.js', 'src/server.ts');
    expect(atStart.some((input) => input.endsWith('src/mcp-server.ts'))).toBe(true);
    expect(
      atStart.filter((input) => /node_modules\/\.pnpm\/(ajv|ajv-formats|fast-uri|ws|@trpc\+client)@/.test(input)),
    ).toEqual([]);
  });
});
