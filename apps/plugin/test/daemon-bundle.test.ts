import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { firstNonAscii } from '@argus/test-kit';
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

  it('is ASCII only: a single other character makes Node decode the whole source slowly at each start', () => {
    // esbuild escapes strings but not regular expressions: write \u escapes there
    for (const file of ['daemon.cjs', 'argus-mcp.cjs']) expect(firstNonAscii(join(bundle, file)), file).toBe('');
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

  it('answers its first MCP request without evaluating Ajv, ws or the tRPC client: they load at the first elicitation and connect', async () => {
    // In the bundle a module evaluated on first use is wrapped in an initializer named after its
    // path; V8's precise coverage, started by a probe preloaded into argus-mcp, tells which ran by the
    // time the first answer is written.
    const lazy = /node_modules\/\.pnpm\/(ajv|ajv-formats|fast-uri|ws|@trpc\+client)@/;
    const source = readFileSync(join(bundle, 'argus-mcp.cjs'), 'utf8');
    const initializers = [...source.matchAll(/"([^"\n]+)"\(/g)].map((match) => match[1]!);
    // each is in the bundle as such (a static import from the entry would evaluate it at once, unwrapped)
    for (const name of ['ajv@', 'ajv-formats@', 'fast-uri@', 'ws@', '@trpc+client@'])
      expect(
        initializers.some((path) => path.includes(`node_modules/.pnpm/${name}`)),
        name,
      ).toBe(true);

    const report = join(stateDir, 'ran.json');
    const probe = join(stateDir, 'coverage-probe.cjs');
    writeFileSync(
      probe,
      `const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const write = process.stdout.write.bind(process.stdout);
let taken = false;
process.stdout.write = (chunk, ...rest) => {
  if (!taken && String(chunk).includes('"jsonrpc"')) {
    taken = true;
    session.post('Profiler.takePreciseCoverage', (error, coverage) => {
      const ran = [];
      for (const script of coverage.result)
        if (script.url.endsWith('argus-mcp.cjs'))
          for (const fn of script.functions) if (fn.ranges[0].count > 0) ran.push(fn.functionName);
      writeFileSync(${JSON.stringify(report)}, JSON.stringify(ran));
    });
  }
  return write(chunk, ...rest);
};`,
    );
    const server = spawn(process.execPath, ['--require', probe, join(bundle, 'argus-mcp.js')], {
      cwd: stateDir,
      env: { ...process.env, ARGUS_STATE_DIR: join(stateDir, 'mcp-state'), ARGUS_CODE_CACHE: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      server.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } })}\n`,
      );
      const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
      expect(JSON.parse(line)).toMatchObject({ id: 1, result: { serverInfo: { name: 'argus' } } });
      const ran = JSON.parse(readFileSync(report, 'utf8')) as string[];
      // the server's own modules ran (the probe sees the bundle at all) ...
      expect(ran).toContain('src/mcp-server.ts');
      // ... and none of the lazy ones
      expect(ran.filter((name) => lazy.test(name))).toEqual([]);
    } finally {
      server.stdin.end();
      if (server.exitCode === null && server.signalCode === null) await once(server, 'exit');
    }
  });
});
