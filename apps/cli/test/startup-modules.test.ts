import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { firstNonAscii, runProcess, startFixtureServer } from '@argus/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from './cli-harness.js';

// The CLI knows its verbs from a generated JSON spec so that a command's start-up loads neither zod
// nor the manifest's schemas (they doubled the CPU of `argus status`, 0.25 -> 0.48 s here). One stray
// value import of the protocol package's index (it happened through @argus/security) brings both
// back. The CLI is one bundle (run from V8's code cache), so what counts is what it evaluates: zod's
// core marks the global object when it loads (`__zod_globalConfig`), and a probe preloaded into the
// process reports that mark at exit.

const dir = mkdtempSync(join(tmpdir(), 'argus-cli-modules-'));
const probe = join(dir, 'probe.cjs');
writeFileSync(
  probe,
  `process.once('exit', () => process.stderr.write('\\nzod loaded: ' + ('__zod_globalConfig' in globalThis) + '\\n'));\n`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function zodLoadedBy(args: string[], expectedCodes = [0, 3]): Promise<boolean> {
  const result = await runProcess(process.execPath, ['--require', probe, ...args], {
    env: { ...process.env, ARGUS_STATE_DIR: join(dir, 'state') },
  });
  // `status` with no daemon exits 3 (not running); anything else is a crash
  expect(expectedCodes, result.stderr).toContain(result.code);
  const mark = /zod loaded: (true|false)/.exec(result.stderr);
  expect(mark, result.stderr).not.toBeNull();
  return mark![1] === 'true';
}

describe('what a CLI command loads at start-up', () => {
  it('the probe sees zod when a process loads it', async () => {
    const zod = createRequire(
      join(import.meta.dirname, '..', '..', '..', 'packages', 'protocol', 'package.json'),
    ).resolve('zod');
    expect(await zodLoadedBy(['-e', `require(${JSON.stringify(zod)})`], [0])).toBe(true);
  });

  it.each([['status'], ['--help'], ['goto', '--help']])('argus %s loads no zod schema code', async (...args) => {
    expect(await zodLoadedBy([CLI, ...args])).toBe(false);
  });

  it('the bundle is ASCII only: a single other character makes Node decode it slowly at each start', () => {
    // esbuild escapes strings but not regular expressions: write \u escapes there
    expect(firstNonAscii(join(dirname(CLI), 'argus.cjs'))).toBe('');
  });

  it('a cold command spawns Chromium and the daemon before the CLI reads its own bundle', async () => {
    // the process's first code (argus-boot.cjs) starts both; the 2.6 MB bundle, its code cache and
    // its modules come after. The probe notes, in order, each process spawned and each file read.
    const orderProbe = join(dir, 'order.cjs');
    writeFileSync(
      orderProbe,
      `const cp = require('node:child_process'); const fs = require('node:fs'); const { basename } = require('node:path');
const seen = [];
const spawn = cp.spawn;
cp.spawn = function (command, ...rest) { seen.push('spawn ' + basename(command)); return spawn.call(this, command, ...rest); };
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) { if (typeof file === 'string' && file.endsWith('.cjs')) seen.push('read ' + basename(file)); return read.call(this, file, ...rest); };
process.once('exit', () => process.stderr.write('\\norder: ' + seen.join(', ') + '\\n'));
`,
    );
    const server = await startFixtureServer();
    const env = {
      ...process.env,
      ARGUS_STATE_DIR: join(dir, 'cold-state'),
      ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
    };
    try {
      const result = await runProcess(
        process.execPath,
        ['--require', orderProbe, CLI, 'goto', server.urlFor('/buttons.html')],
        {
          env,
        },
      );
      expect(result.code, result.stderr).toBe(0);
      const order = /order: (.*)/.exec(result.stderr)?.[1]?.split(', ') ?? [];
      const chromium = order.findIndex((event) => event.startsWith('spawn ') && /chrom/i.test(event));
      const daemon = order.indexOf(`spawn ${basename(process.execPath)}`);
      const bundle = order.indexOf('read argus.cjs');
      expect(chromium, order.join(', ')).toBeGreaterThanOrEqual(0);
      expect(bundle, order.join(', ')).toBeGreaterThan(chromium);
      expect(bundle, order.join(', ')).toBeGreaterThan(daemon);
      expect(daemon, order.join(', ')).toBeGreaterThan(chromium);
    } finally {
      await runProcess(process.execPath, [CLI, 'stop'], { env });
      await server.close();
    }
  });
});
