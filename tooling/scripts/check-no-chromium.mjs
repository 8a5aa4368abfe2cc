#!/usr/bin/env node
// Last step of `pnpm check`: fails when a Chromium launched by Argus (profile dir
// <os.tmpdir()>/argus-chrome-*) is still alive after the whole suite, i.e. something leaked it.
import { setTimeout as sleep } from 'node:timers/promises';
import { listArgusChromeProcesses } from '@argus/test-kit';

const GRACE_MS = 3000;
const STEP_MS = 100;

const deadline = Date.now() + GRACE_MS;
let alive = listArgusChromeProcesses();
while (alive.length > 0 && Date.now() < deadline) {
  await sleep(STEP_MS);
  alive = listArgusChromeProcesses();
}

if (alive.length > 0) {
  console.error(`${alive.length} Argus Chromium process(es) still running ${GRACE_MS / 1000} s after the tests (something did not close its browser):`);
  for (const proc of alive) console.error(`  pid ${proc.pid}: ${proc.cmdline.slice(0, 200)}`);
  console.error(`Stop them with: kill ${alive.map((proc) => proc.pid).join(' ')}`);
  process.exit(1);
}
console.log('no Chromium left running');
