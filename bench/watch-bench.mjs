#!/usr/bin/env node
// What `argus watch` delivers to a viewer, against the raw CDP screencast of the same tab in the same run.
//   pnpm build && node bench/watch-bench.mjs [--seconds N] [--trials N]
// 1. frames/s: the watched tab repaints on every animation frame for --seconds. Baseline: the raw
//    CDP screencast on the daemon's own session of the tab (every frame acknowledged at once), frames
//    counted as they arrive. Watch: the frames a viewer page in a second Chromium decoded and showed.
// 2. latency: the tab is still; its background is set with `page.eval` through the typed client, and
//    the time is taken from just before that call to (baseline) the first screencast frame after it
//    at the daemon, and (watch) the viewer's image showing the new colour (a pixel read back in the
//    viewer page). Both clocks are this machine's wall clock (Date.now in Node and in the viewer).
// The ratios are watch / raw (frames/s: higher is better; latency: lower is better).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, connectCri, launchChrome } from '@argus/cdp';
import { createArgusClient } from '@argus/client';
import { startDaemon } from '@argus/daemon';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { median, percentile } from './lib-stats.mjs';

const { seconds: SECONDS, trials: TRIALS } = benchOptions({ seconds: 4, trials: 15 });
const FLAGS = '--proxy-server=http://127.0.0.1:9';
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const colour = (i) => [(i * 97) % 256, (i * 57 + 80) % 256, (i * 31 + 160) % 256];

const workspace = mkdtempSync(join(tmpdir(), 'argus-bench-watch-'));
const server = await startFixtureServer();
const daemon = await startDaemon({
  stateDir: join(workspace, '.argus'),
  workspace,
  env: { ...process.env, ARGUS_CHROME_FLAGS: FLAGS },
});
const { client, close: closeClient } = createArgusClient({
  url: `http://127.0.0.1:${daemon.port}`,
  token: daemon.token,
});
let viewerChrome;
let viewerBrowser;
try {
  const tab = (await client.tabs.open.mutate({ url: server.urlFor('/form.html') })).id;
  const page = daemon.services.manager.current?.page(tab);
  if (!page) throw new Error('the watched tab has no page');
  const setColour = (rgb) =>
    client.page.eval.mutate({ tab, js: `document.body.style.background = 'rgb(${rgb.join(',')})'` });
  const animate = (on) =>
    client.page.eval.mutate({
      tab,
      js: on
        ? `window.__spin = true; (function step(t) { if (!window.__spin) return; document.body.style.background = 'hsl(' + (t / 3 % 360) + ',80%,50%)'; requestAnimationFrame(step); })(0)`
        : 'window.__spin = false',
    });

  // ---- baseline: the raw screencast on the daemon's session of the tab
  const rawFrames = [];
  const off = page.session.on('Page.screencastFrame', (event) => {
    rawFrames.push(Date.now());
    void page.session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
  });
  await page.session.send('Page.startScreencast', { format: 'jpeg', quality: 70, maxWidth: 1280, maxHeight: 1280 });
  await sleep(500);
  await animate(true);
  rawFrames.length = 0;
  await sleep(SECONDS * 1000);
  const rawFps = rawFrames.length / SECONDS;
  await animate(false);
  await sleep(300);
  const rawLatency = [];
  for (let i = 0; i < TRIALS; i++) {
    const before = rawFrames.length;
    const t0 = Date.now();
    await setColour(colour(i));
    while (rawFrames.length === before) await sleep(1);
    rawLatency.push(rawFrames[before] - t0);
    await sleep(150);
  }
  await page.session.send('Page.stopScreencast');
  off();

  // ---- watch: a viewer page in a second Chromium
  viewerChrome = await launchChrome({ extraFlags: [FLAGS, '--window-size=1400,900'] });
  viewerBrowser = await Browser.connect(await connectCri(viewerChrome.wsEndpoint));
  const viewer = await viewerBrowser.newPage();
  await viewer.navigate((await client.watch.open.mutate({ tab })).url);
  const frames = () => viewer.evaluate('window.__argusWatch.frames');
  while ((await frames()) === 0) await sleep(20);
  // resolves in the viewer when the image first shows `rgb` (read back from a pixel)
  await viewer.evaluate(`(() => {
    const img = document.getElementById('screen');
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const g = canvas.getContext('2d', { willReadFrequently: true });
    img.addEventListener('load', () => {
      const want = window.__want;
      if (!want) return;
      g.drawImage(img, img.naturalWidth - 4, img.naturalHeight - 4, 1, 1, 0, 0, 1, 1);
      const [r, gr, b] = g.getImageData(0, 0, 1, 1).data;
      if (Math.abs(r - want.rgb[0]) + Math.abs(gr - want.rgb[1]) + Math.abs(b - want.rgb[2]) < 24) {
        window.__want = undefined;
        want.resolve(Date.now());
      }
    });
  })()`);
  await animate(true);
  await sleep(500);
  const start = await frames();
  await sleep(SECONDS * 1000);
  const watchFps = ((await frames()) - start) / SECONDS;
  await animate(false);
  await sleep(300);
  const watchLatency = [];
  for (let i = 0; i < TRIALS; i++) {
    const rgb = colour(i + 1000);
    const shown = viewer.evaluate(
      `new Promise((resolve) => { window.__want = { rgb: ${JSON.stringify(rgb)}, resolve }; })`,
      {
        awaitPromise: true,
        timeoutMs: 10_000,
      },
    );
    await sleep(20); // the promise is armed in the viewer before the change
    const t0 = Date.now();
    await setColour(rgb);
    watchLatency.push((await shown) - t0);
    await sleep(150);
  }

  const line = (name, values) =>
    `${name}: median ${median(values).toFixed(1)} ms, p90 ${percentile(values, 90).toFixed(1)} ms (${values.length} changes)`;
  console.log(`load average (1 min) at the end: ${loadavg()[0]?.toFixed(1)} on this machine's cores`);
  console.log(`frames/s with the tab repainting every animation frame, over ${SECONDS} s:`);
  console.log(`  raw CDP screencast at the daemon: ${rawFps.toFixed(1)} frames/s`);
  console.log(`  watch viewer (second Chromium):   ${watchFps.toFixed(1)} frames/s`);
  console.log(`  ratio watch / raw: ${(watchFps / rawFps).toFixed(2)}`);
  console.log('page change (eval sets the background) to the first frame showing it:');
  console.log(`  ${line('raw CDP frame at the daemon', rawLatency)}`);
  console.log(`  ${line('watch viewer shows it      ', watchLatency)}`);
  console.log(`  ratio watch / raw (median): ${(median(watchLatency) / median(rawLatency)).toFixed(2)}`);
} finally {
  await viewerBrowser?.close().catch(() => undefined);
  await viewerChrome?.kill();
  closeClient();
  await daemon.stop('bench done');
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}
