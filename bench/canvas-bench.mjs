#!/usr/bin/env node
// Canvas preview: how long a patch takes to show in the live preview tab (`argus canvas open`),
// against the same patch on the same document with no preview open (the baseline, measured in the
// same run); then a 500-node batch (one node.insert per node) and its preview update. A patch call
// returns once every preview shows its revision (pushed by the daemon, no polling), so the patch
// time with a preview open is the patch->preview latency; the bench also reads the revision the tab
// shows right after each call to make sure it was not a stale one.
// Usage: pnpm build && pnpm bench canvas [--runs N] [--nodes N] [--rounds N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createArgusClient } from '@argus/client';
import { startDaemon } from '@argus/daemon';
import { benchOptions } from './lib-args.mjs';
import { median, ms, percentile } from './lib-stats.mjs';

const { runs: RUNS, nodes: NODES, rounds: ROUNDS } = benchOptions({ runs: 40, nodes: 500, rounds: 5 });
const workspace = mkdtempSync(join(tmpdir(), 'argus-bench-canvas-'));
const daemon = await startDaemon({
  stateDir: join(workspace, '.argus'),
  workspace,
  env: { ...process.env, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' },
});
const { client, close } = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });

const textNode = (id, i) => ({
  op: 'node.insert',
  pageId: 'page-1',
  parentId: 'root',
  node: {
    id,
    kind: 'text',
    rect: { x: (i % 20) * 60, y: Math.floor(i / 20) * 30, width: 56, height: 24 },
    props: { text: `Item ${i}` },
    style: { fontSize: 12, color: '#222' },
  },
});
const ROOT = {
  op: 'node.insert',
  pageId: 'page-1',
  parentId: null,
  node: { id: 'root', kind: 'frame', rect: { x: 0, y: 0, width: 1280, height: 800 } },
};

async function patchTimes(doc, check) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const { revision } = await client.canvas.patch.mutate({
      doc,
      ops: [{ op: 'node.update', nodeId: 'n0', changes: { 'props.text': `Run ${i}` } }],
    });
    times.push(performance.now() - start);
    if (check) {
      const { value } = await client.page.eval.mutate({
        js: 'document.documentElement.dataset.canvasRevision + "|" + document.querySelector("[data-canvas-node=n0]").textContent',
      });
      if (value !== `${revision}|Run ${i}`) throw new Error(`preview shows ${value}, expected revision ${revision}`);
    }
  }
  return times;
}

try {
  for (const doc of ['plain', 'shown']) {
    await client.canvas.new.mutate({ name: doc, id: doc });
    await client.canvas.patch.mutate({
      doc,
      ops: [ROOT, ...Array.from({ length: 20 }, (_, i) => textNode(`n${i}`, i))],
    });
  }
  await client.canvas.open.mutate({ doc: 'shown' });
  const plain = await patchTimes('plain', false);
  const shown = await patchTimes('shown', true);
  console.log(`one-node patch, ${RUNS} runs (document of 21 nodes):`);
  console.log(`  no preview (baseline): median ${ms(median(plain))}, p95 ${ms(percentile(plain, 95))}`);
  console.log(
    `  preview open:          median ${ms(median(shown))}, p95 ${ms(percentile(shown, 95))}  (${(median(shown) / median(plain)).toFixed(2)}x)`,
  );
  console.log(`  patch->preview latency (median): ${ms(median(shown))}`);

  const batch = (prefix) => Array.from({ length: NODES }, (_, i) => textNode(`${prefix}${i}`, i));
  // rounds alternate which document goes first, so warm-up does not favour one side
  const bigPlain = [];
  const bigShown = [];
  for (let round = 0; round < ROUNDS; round++) {
    const plainDoc = `big-plain-${round}`;
    const shownDoc = `big-shown-${round}`;
    for (const doc of [plainDoc, shownDoc]) {
      await client.canvas.new.mutate({ name: doc, id: doc });
      await client.canvas.patch.mutate({ doc, ops: [ROOT] });
    }
    await client.canvas.open.mutate({ doc: shownDoc });
    const order = round % 2 ? [shownDoc, plainDoc] : [plainDoc, shownDoc];
    for (const doc of order) {
      const start = performance.now();
      const { revision } = await client.canvas.patch.mutate({ doc, ops: batch('b') });
      (doc === plainDoc ? bigPlain : bigShown).push(performance.now() - start);
      if (doc !== shownDoc) continue;
      const { value } = await client.page.eval.mutate({
        js: 'document.documentElement.dataset.canvasRevision + "|" + document.querySelectorAll("[data-canvas-node]").length',
      });
      if (value !== `${revision}|${NODES + 1}`) throw new Error(`preview shows ${value}`);
    }
    await client.tabs.close.mutate({});
  }
  console.log(`${NODES}-node batch (one patch call of ${NODES} node.insert), median of ${ROUNDS} rounds:`);
  console.log(`  no preview (baseline): ${ms(median(bigPlain))}`);
  console.log(
    `  preview open:          ${ms(median(bigShown))}  (${(median(bigShown) / median(bigPlain)).toFixed(2)}x; preview update ~${ms(median(bigShown) - median(bigPlain))})`,
  );
} finally {
  close();
  await daemon.stop('bench done');
  rmSync(workspace, { recursive: true, force: true, maxRetries: 5 });
}
