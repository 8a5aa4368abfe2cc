#!/usr/bin/env node
// Extension-mode benchmark: median round trip of `eval 1` through the typed client, with the daemon
// driving (a) a browser it launched itself (managed mode, the baseline) and (b) a user's Chromium
// through the MV3 extension and the relay (extension mode), against (c) raw Runtime.evaluate over the
// user's own direct CDP connection to the same tab (the floor). Same daemon, same browser, same run.
// Usage: pnpm --filter @argus/daemon build && pnpm --filter @argus/extension build && node bench/extension-bench.mjs [--rounds N]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectCri, launchChrome } from '@argus/cdp';
import { createArgusClient } from '@argus/client';
import {
  evaluateInWorker,
  extensionFlags,
  findServiceWorker,
  pairExtension,
  startFixtureServer,
  waitUntil,
} from '@argus/test-kit';
import { startDaemon } from '@argus/daemon';
import { benchOptions } from './lib-args.mjs';
import { median, ms, percentile } from './lib-stats.mjs';

const { rounds: ROUNDS } = benchOptions({ rounds: 300 });
const WARMUP = 30;

/** The user's Chromium with the extension loaded (the repo's one launcher and CDP client; the test kit's extension helpers). */
async function launchUserBrowser() {
  const chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9', ...extensionFlags()] });
  try {
    const transport = await connectCri(chrome.wsEndpoint);
    const cdp = { send: (method, params = {}, sessionId) => transport.send(method, params, sessionId) };
    try {
      const worker = await findServiceWorker(transport);
      return {
        cdp,
        evalInWorker: (expression) => evaluateInWorker(transport, worker.targetId, expression),
        close: async () => {
          await transport.close();
          await chrome.kill(3000);
        },
      };
    } catch (error) {
      await transport.close();
      throw error;
    }
  } catch (error) {
    await chrome.kill(3000);
    throw error;
  }
}

async function timeEval(client, label) {
  return timeRounds(() => client.page.eval.mutate({ js: '1' }), label);
}

async function timeRounds(run, label) {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  const result = { label, median: median(samples), p90: percentile(samples, 90) };
  console.log(`${label.padEnd(28)} median ${ms(result.median)}  p90 ${ms(result.p90)}  (${ROUNDS} rounds)`);
  return result;
}

const server = await startFixtureServer();
const workspace = mkdtempSync(join(tmpdir(), 'argus-bench-'));
const launchToken = randomBytes(24).toString('base64url');
const daemon = await startDaemon({
  stateDir: join(workspace, '.argus'),
  workspace,
  env: {
    ...process.env,
    ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
    ARGUS_RELAY_PORT: '0',
    ARGUS_RELAY_LAUNCH_TOKEN: launchToken,
  },
});
const handle = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
const { client } = handle;
let user;
try {
  // (a) managed: the daemon launches headless Chromium itself
  await client.page.goto.mutate({ url: server.urlFor('/form.html') });
  const managed = await timeEval(client, 'eval 1, managed mode');

  // (b) extension: the user's Chromium, through the extension and the relay
  user = await launchUserBrowser();
  await pairExtension(client, user.evalInWorker, launchToken);
  const { targetId } = await user.cdp.send('Target.createTarget', { url: server.urlFor('/form.html') });
  await waitUntil(
    async () => (await client.tabs.list.query({})).tabs.some((tab) => tab.id === targetId),
    10_000,
    'the user tab',
  );
  await client.tabs.select.mutate({ id: targetId });
  const extension = await timeEval(client, 'eval 1, extension mode');

  console.log(
    `ratio extension / managed: x${(extension.median / managed.median).toFixed(2)} (median), +${ms(extension.median - managed.median)} per command`,
  );

  // (c) the floor: the same tab over the user's own direct CDP connection (no relay, no daemon)
  const { sessionId } = await user.cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const direct = await timeRounds(
    () => user.cdp.send('Runtime.evaluate', { expression: '1+1' }, sessionId),
    'Runtime.evaluate, direct CDP',
  );
  await user.cdp.send('Target.detachFromTarget', { sessionId });
  console.log(`ratio extension mode / direct CDP: x${(extension.median / direct.median).toFixed(2)} (median)`);
} finally {
  handle.close();
  await daemon.stop('bench done');
  await user?.close();
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}
