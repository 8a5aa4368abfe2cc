#!/usr/bin/env node
// `node check-no-chromium.mjs <command...>` runs the command (the test suite) with a temp root of
// its own (TMPDIR=<os.tmpdir()>/argus-check-*), inherited by vitest, daemons and every Chromium
// they launch, then fails when a Chromium whose profile lies under that root (argus-chrome-*) is
// still alive. Browsers outside the root (a user's daemon, another helper's suite) are never
// counted or touched, so `pnpm check` passes beside other Argus work on the same machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { listArgusChromeProcesses } from '@argus/test-kit';

const GRACE_MS = 3000;
const STEP_MS = 100;

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error(
    'usage: check-no-chromium.mjs <command> [args...]   (runs the command, then checks it left no Chromium)',
  );
  process.exit(2);
}

const root = mkdtempSync(join(tmpdir(), 'argus-check-'));
// listArgusChromeProcesses() matches profiles under os.tmpdir(), which reads TMPDIR on every call.
process.env.TMPDIR = root;

const code = await new Promise((resolve) => {
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env: process.env });
  child.once('error', (error) => {
    console.error(`could not run ${command[0]}: ${error.message}`);
    resolve(1);
  });
  child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
});

const deadline = Date.now() + GRACE_MS;
let alive = listArgusChromeProcesses();
while (alive.length > 0 && Date.now() < deadline) {
  await sleep(STEP_MS);
  alive = listArgusChromeProcesses();
}

if (alive.length > 0) {
  console.error(
    `${alive.length} Chromium process(es) started by this run still running ${GRACE_MS / 1000} s after it (something did not close its browser; killed now):`,
  );
  for (const proc of alive) {
    console.error(`  pid ${proc.pid}: ${proc.cmdline.slice(0, 200)}`);
    try {
      process.kill(proc.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await sleep(STEP_MS);
}
rmSync(root, { recursive: true, force: true, maxRetries: 5 });
if (alive.length > 0) process.exit(1);
if (code !== 0) process.exit(code);
console.log('no Chromium left running by this run');
