#!/usr/bin/env node
// Action sweep: on every real saved page, hover every ref of the interactive snapshot (hover runs
// the same checks as a click: scroll into view, wait until visible and stable, hit-test the point)
// and count the outcomes per error code, with the hover time against a raw CDP Runtime.evaluate
// round trip measured in the same run. A hover changes nothing, so the page stays as it was and
// every ref is tried. `element_obscured` is a real overlap when the page's layout overlaps without
// its (blocked) external CSS; the samples printed show which.
// Usage: pnpm build && pnpm bench actions [--max-refs N] [--only name,name] [--samples N]
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Browser, connectCri, launchChrome } from '../packages/cdp/dist/index.js';
import { refsIn } from '../packages/protocol/dist/snapshot-refs.js';
import { SnapshotEngine, hover } from '../packages/snapshot/dist/index.js';
import { median } from './lib-stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const MAX_REFS = Number(option('max-refs', '80'));
const SAMPLES = Number(option('samples', '3'));
const ONLY = option('only', '')?.split(',').filter(Boolean) ?? [];

const candidates = [join(here, '../tooling/test-kit/fixtures/real-pages'), join(here, '../../shared/fixtures/real-pages'), '/work/shared/fixtures/real-pages'];
const realRoot = candidates.find((dir) => existsSync(dir));
if (!realRoot) throw new Error('real-pages fixtures not found');
const realPages = readdirSync(realRoot).filter((name) => existsSync(join(realRoot, name, 'source.html')) && (!ONLY.length || ONLY.includes(name)));

const server = http.createServer((request, response) => {
  const name = decodeURIComponent((request.url ?? '/').split('/')[1] ?? '');
  if (!realPages.includes(name)) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(join(realRoot, name, 'source.html')));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

process.on('unhandledRejection', (error) => console.error(`(ignored during shutdown) ${error?.message ?? error}`));
const chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9', '--window-size=1280,900'] });
const browser = await Browser.connect(await connectCri(chrome.wsEndpoint));
const rows = [];
const samples = new Map();
const hoverTimes = [];
const evalTimes = [];
try {
  for (const name of realPages) {
    const page = await browser.newPage();
    try {
      await page.navigate(`${origin}/${name}/`, { timeoutMs: 20_000 }).catch((error) => console.error(`${name}: ${error.message}`));
      const engine = new SnapshotEngine(page);
      const refs = refsIn((await engine.snapshot({ interactive: true })).text).slice(0, MAX_REFS);
      const counts = {};
      for (const ref of refs) {
        let start = performance.now();
        await page.session.send('Runtime.evaluate', { expression: '1', returnByValue: true });
        evalTimes.push(performance.now() - start);
        start = performance.now();
        let code = 'ok';
        try {
          await hover(engine, ref, { timeoutMs: 2_000 });
        } catch (error) {
          code = error.code ?? 'thrown';
          const list = samples.get(code) ?? [];
          if (list.length < SAMPLES) list.push(`${name} ${ref}: ${error.message.slice(0, 150)}`);
          samples.set(code, list);
        }
        if (code === 'ok') hoverTimes.push(performance.now() - start);
        counts[code] = (counts[code] ?? 0) + 1;
      }
      rows.push({ name, refs: refs.length, counts });
    } finally {
      await browser.closePage(page.targetId).catch(() => undefined);
    }
  }
} finally {
  await browser.close();
  await chrome.kill();
  server.close();
}

const codes = [...new Set(rows.flatMap((row) => Object.keys(row.counts)))].sort((a, b) => (a === 'ok' ? -1 : b === 'ok' ? 1 : a.localeCompare(b)));
const pad = (value, width) => String(value).padStart(width);
console.log(`action sweep: hover on up to ${MAX_REFS} refs of each of ${realPages.length} real pages, Chromium ${chrome.executablePath}`);
console.log(`${'page'.padEnd(18)}${pad('refs', 6)}${codes.map((code) => pad(code, Math.max(code.length + 2, 6))).join('')}`);
const totals = {};
for (const row of rows) {
  console.log(`${row.name.padEnd(18)}${pad(row.refs, 6)}${codes.map((code) => pad(row.counts[code] ?? 0, Math.max(code.length + 2, 6))).join('')}`);
  for (const [code, count] of Object.entries(row.counts)) totals[code] = (totals[code] ?? 0) + count;
}
const tried = rows.reduce((sum, row) => sum + row.refs, 0);
console.log(`${'total'.padEnd(18)}${pad(tried, 6)}${codes.map((code) => pad(totals[code] ?? 0, Math.max(code.length + 2, 6))).join('')}`);
console.log(`ok: ${(100 * (totals.ok ?? 0) / Math.max(tried, 1)).toFixed(1)}% of ${tried} refs`);
const hoverMedian = median(hoverTimes);
const evalMedian = median(evalTimes);
console.log(`hover median ${hoverMedian.toFixed(2)} ms vs raw CDP Runtime.evaluate ${evalMedian.toFixed(2)} ms in the same run: ${(hoverMedian / evalMedian).toFixed(1)}x`);
for (const [code, list] of samples) console.log(`${code} samples:\n  ${list.join('\n  ')}`);
