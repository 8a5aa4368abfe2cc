import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** esbuild's metafile of the ES module build (argus-mcp and the daemon's boot), or of the daemon's CommonJS bundle. */
const metafile = (format: 'esm' | 'cjs' = 'esm'): Metafile =>
  JSON.parse(readFileSync(join(bundle, `metafile-${format}.json`), 'utf8')) as Metafile;

/**
 * The source files of the chunks a process runs before its first answer: its entry's static imports,
 * and its main module (the chunk the entry imports dynamically, holding `main`), with their static
 * imports, transitively.
 */
function loadedAtStart(entry: string, main: string): string[] {
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
  const names = new Set<string>();
  for (const output of [...Object.values(metafile('esm').outputs), ...Object.values(metafile('cjs').outputs)])
    for (const { path, external } of output.imports) {
      if (!external || path.startsWith('.') || path.startsWith('node:')) continue;
      if (builtinModules.includes(path.split('/')[0]!)) continue;
      const parts = path.split('/');
      names.add(path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  return names;
}

describe('the bundled daemon', () => {
  let stateDir: string;
  beforeAll(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'argus-daemon-bundle-'));
  });
  afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

  it('imports no package but the declared run-time externals', () => {
    expect(files).toContain('daemon-main.js');
    expect(readdirSync(bundle)).toContain('daemon.cjs');
    const unexpected = [...importedPackages()].filter((name) => !DAEMON_RUNTIME_EXTERNALS.includes(name));
    expect(unexpected).toEqual([]);
  });

  it('has no import() left in the CommonJS bundle: functions restored from a code cache cannot run one', () => {
    const { outputs } = metafile('cjs');
    const dynamic = outputs['dist/daemon/daemon.cjs']!.imports.filter(({ kind }) => kind === 'dynamic-import');
    expect(dynamic).toEqual([]);
    // packages left outside are required instead
    expect(outputs['dist/daemon/daemon.cjs']!.imports.some(({ path }) => path === 'better-sqlite3')).toBe(true);
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

  it('starts without the design canvas (Yjs): it loads at the first canvas command', async () => {
    // the canvas is in the daemon's bundle ...
    expect(
      Object.keys(metafile('cjs').outputs['dist/daemon/daemon.cjs']!.inputs).some((input) => input.includes('/yjs@')),
    ).toBe(true);
    // ... and not evaluated by the time the daemon is ready: Yjs marks the global object when it loads
    const probe = join(stateDir, 'probe.cjs');
    writeFileSync(
      probe,
      `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).startsWith('argus-daemon ready')) process.stderr.write('yjs loaded: ' + (globalThis['__ $YJS$ __'] === true) + '\\n');
  return write(chunk, ...rest);
};`,
    );
    const daemon = spawn(process.execPath, ['--require', probe, join(bundle, 'daemon-main.js')], {
      env: { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_PRELAUNCH: '0', ARGUS_CODE_CACHE: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      daemon.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = once(daemon, 'exit').then(([code]) => {
        throw new Error(`the daemon exited (${String(code)}) before it was ready: ${stderr}`);
      });
      // settled by the stop below too: nothing to report then
      exited.catch(() => undefined);
      const [line] = (await Promise.race([once(createInterface({ input: daemon.stdout }), 'line'), exited])) as [
        string,
      ];
      expect(line).toMatch(/^argus-daemon ready/);
      await expect.poll(() => stderr).toContain('yjs loaded: ');
      expect(stderr).toContain('yjs loaded: false');
    } finally {
      if (daemon.exitCode === null && daemon.signalCode === null) {
        daemon.kill('SIGTERM');
        await once(daemon, 'exit');
      }
    }
  });

  it('answers its first MCP request without compiling Ajv, ws or the tRPC client: they load at the first elicitation and connect', () => {
    const atStart = loadedAtStart('dist/daemon/argus-mcp.js', 'src/server.ts');
    expect(atStart.some((input) => input.endsWith('src/mcp-server.ts'))).toBe(true);
    expect(
      atStart.filter((input) => /node_modules\/\.pnpm\/(ajv|ajv-formats|fast-uri|ws|@trpc\+client)@/.test(input)),
    ).toEqual([]);
  });
});
