// Browser skills (issue 19): a recorded login flow replayed by `argus skill test` (one process, the
// steps run inside the daemon) against the same four steps as separate CLI commands (goto, fill,
// fill, click: four processes), measured in the same run on the fixture login page. Also prints
// the replay time the daemon itself reports, and the same steps as four tRPC calls from a script.
//   pnpm bench skill [--runs N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectToDaemon } from '@argus/client';
import { runProcess, startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { median, ms } from './lib-stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'apps', 'cli', 'dist', 'argus.js');
const { runs } = benchOptions({ runs: 15 });
const workspace = mkdtempSync(join(tmpdir(), 'argus-bench-skill-'));
const stateDir = join(workspace, '.argus');
const env = { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' };
const server = await startFixtureServer();
const url = server.urlFor('/login.html');

/** Runs `argus …` (asynchronously: the fixture server in this process must keep answering). */
async function argus(...args) {
  const result = await runProcess(process.execPath, [cli, ...args], { cwd: workspace, env });
  if (result.code !== 0) throw new Error(`argus ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

async function timed(task) {
  const started = performance.now();
  const value = await task();
  return { ms: performance.now() - started, value };
}

const STEPS = [
  ['goto', url],
  ['fill', 'label=Username', 'ada'],
  ['fill', 'label=Password', 'hunter2'],
  ['click', 'role=button[name="Sign in"]'],
];

let connection;
try {
  // record once, through the CLI, exactly as a user would
  await argus('skill', 'record', 'login');
  for (const step of STEPS) await argus(...step);
  await argus('skill', 'save');
  connection = await connectToDaemon({ stateDir, name: 'skill-bench' });
  const { client } = connection;

  const samples = { separate: [], skill: [], inDaemon: [], trpc: [] };
  for (let i = 0; i < runs; i++) {
    samples.separate.push(
      (
        await timed(async () => {
          for (const step of STEPS) await argus(...step);
        })
      ).ms,
    );
    const replay = await timed(() =>
      argus('skill', 'test', 'login', '--param', 'username=ada', '--param', 'password=hunter2', '--json'),
    );
    samples.skill.push(replay.ms);
    samples.inDaemon.push(JSON.parse(replay.value).durationMs);
    samples.trpc.push(
      (
        await timed(async () => {
          await client.page.goto.mutate({ url });
          await client.input.fill.mutate({ target: 'label=Username', text: 'ada' });
          await client.input.fill.mutate({ target: 'label=Password', text: 'hunter2' });
          await client.input.click.mutate({ target: 'role=button[name="Sign in"]' });
        })
      ).ms,
    );
  }
  const base = median(samples.separate);
  console.log(`Login flow (goto + 2 fills + click, fixture page), ${runs} runs each, medians:`);
  console.log('| how | median | vs separate CLI commands |');
  console.log('|---|---|---|');
  const rows = [
    ['4 separate CLI commands (4 processes)', samples.separate],
    ['`argus skill test login` (1 process)', samples.skill],
    ['replay inside the daemon (skill test durationMs)', samples.inDaemon],
    ['4 tRPC calls from one script', samples.trpc],
  ];
  for (const [name, values] of rows)
    console.log(`| ${name} | ${ms(median(values))} | ${(median(values) / base).toFixed(2)}x |`);
} finally {
  connection?.close();
  await runProcess(process.execPath, [cli, 'stop'], { cwd: workspace, env });
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}
