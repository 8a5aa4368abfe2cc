// (The fixture server runs in a child process: spawnSync blocks this one while the CLI runs.)
// Whole-process time of `argus url` against a warm daemon, beside `node -e 0` in the same run.
//   pnpm bench cli [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchOptions } from './lib-args.mjs';
import { median, ms } from './lib-stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'apps', 'cli', 'dist', 'argus.js');
const { runs } = benchOptions({ runs: 21 });
const stateDir = mkdtempSync(join(tmpdir(), 'argus-bench-cli-'));
const env = { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' };
// The demo page over HTTP (file: URLs are refused by default), served by a child: this process
// blocks in spawnSync while the CLI runs.
const server = spawn(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    "const { startFixtureServer } = await import('@argus/test-kit'); const s = await startFixtureServer(); console.log(s.url);",
  ],
  { cwd: join(root, 'bench'), stdio: ['ignore', 'pipe', 'inherit'] },
);
const serverUrl = await new Promise((resolve, reject) => {
  server.stdout.setEncoding('utf8');
  server.stdout.once('data', (line) => resolve(line.trim()));
  server.once('exit', (code) => reject(new Error(`fixture server exited (${code})`)));
});
const demoPage = new URL('/form.html', serverUrl).href;

function time(command, args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return elapsed;
}

try {
  time(process.execPath, [cli, 'goto', demoPage]); // starts the daemon and the browser
  const samples = { 'node -e 0': [], 'node apps/cli/dist/argus.js url': [], 'pnpm argus url': [] };
  for (let i = 0; i < runs; i++) {
    samples['node -e 0'].push(time(process.execPath, ['-e', '0']));
    samples['node apps/cli/dist/argus.js url'].push(time(process.execPath, [cli, 'url']));
    if (i < Math.ceil(runs / 3)) samples['pnpm argus url'].push(time('pnpm', ['--silent', 'argus', 'url']));
  }
  const base = median(samples['node -e 0']);
  console.log(`CLI start-up, warm daemon, ${runs} runs (pnpm: ${samples['pnpm argus url'].length}), medians:`);
  console.log('| command | median | vs node -e 0 |');
  console.log('|---|---|---|');
  for (const [name, values] of Object.entries(samples))
    console.log(`| \`${name}\` | ${ms(median(values))} | ${(median(values) / base).toFixed(2)}x |`);
} finally {
  spawnSync(process.execPath, [cli, 'stop'], { env });
  rmSync(stateDir, { recursive: true, force: true });
  server.kill();
}
