#!/usr/bin/env node
// Snapshot benchmark: size (chars, chars/4 tokens), interactive coverage and speed of
// @argus/snapshot on the real saved pages plus a generated 5,000-element page, with the raw
// CDP Accessibility.getFullAXTree time measured on the same page in the same run as a baseline.
// Usage: pnpm --filter @argus/snapshot build && node bench/snapshot-bench.mjs [--runs N] [--only name,name] [--dump DIR]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotEngine } from '@argus/snapshot';
import { refsIn } from '@argus/protocol/snapshot-refs';
import { benchOptions } from './lib-args.mjs';
import { realPages as findRealPages, servePages, visitPages } from './lib-pages.mjs';
import { median } from './lib-stats.mjs';

const { runs: RUNS, dump: DUMP, only: ONLY } = benchOptions({ runs: 7, dump: '', only: '' });
const SELECTOR = 'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [onclick], [tabindex]';
const realPages = findRealPages(ONLY);

/** ~5,000 elements: nav lists, article sections with inline links, forms and a data table. */
function generatedPage() {
  const parts = ['<!doctype html><html><head><meta charset="utf-8"><title>Generated 5k</title></head><body>'];
  parts.push('<header><nav aria-label="Main"><ul>');
  for (let i = 0; i < 40; i++) parts.push(`<li><a href="/nav/${i}">Section ${i}</a></li>`);
  parts.push('</ul></nav></header><main>');
  for (let s = 0; s < 76; s++) {
    parts.push(`<section><h2>Topic ${s}</h2><div class="wrap"><div class="inner">`);
    for (let p = 0; p < 5; p++)
      parts.push(
        `<p>Paragraph ${p} of topic ${s} with <a href="/t/${s}/${p}">a link</a> and <strong>bold</strong> <em>words</em> in <span>running text</span>.</p>`,
      );
    parts.push(
      `<ul>${Array.from({ length: 6 }, (_, i) => `<li><span class="icon"></span><span>Item ${i}</span></li>`).join('')}</ul>`,
    );
    parts.push(
      `<form><label>Field ${s} <input name="f${s}"></label><select><option>One</option><option>Two</option></select><button type="button">Save ${s}</button></form>`,
    );
    parts.push('</div></div></section>');
  }
  parts.push('<table><thead><tr><th>Name</th><th>Value</th><th>Action</th></tr></thead><tbody>');
  for (let r = 0; r < 120; r++)
    parts.push(`<tr><td>Row ${r}</td><td><span>${r * 7}</span></td><td><button type="button">Edit</button></td></tr>`);
  parts.push('</tbody></table></main><footer><p>Footer</p></footer></body></html>');
  return parts.join('');
}
const GENERATED = generatedPage();

const { server, extra } = await servePages({ __generated5k: GENERATED });

const time = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

/**
 * The census of what a person could click, found independently of the walker: the selector above,
 * plus every element with a pointer cursor whose parent has none and that sits inside no control of
 * the selector (one control, one count), every <a> without href that has a title or role, and every
 * element with a click-type listener (CDP DOMDebugger.getEventListeners). Only what a person can see
 * counts: rendered, not transparent, with a box, not placed outside the page, not clipped to nothing.
 * Labels are left out (a click on one is a click on its field, which has its own ref).
 */
const CENSUS_FN = `function (selector, listened) {
  const marked = new Set();
  const clipsAway = (style, rect) => (style.overflowX !== 'visible' || style.overflowY !== 'visible') && (rect.width <= 1 || rect.height <= 1);
  const visible = (el) => {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return false;
    if (rect.right + scrollX <= 0 || rect.bottom + scrollY <= 0) return false;
    for (let at = el; at && at !== document.body; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (clipsAway(style, at.getBoundingClientRect())) return false;
      if ((style.position === 'absolute' || style.position === 'fixed') && /^rect\\((?:0(?:px)?[ ,]+){3}0(?:px)?\\)$/.test(style.clip)) return false;
      if (/^inset\\((?:[5-9]\\d|100)%/.test(style.clipPath)) return false;
    }
    return true;
  };
  const all = document.querySelectorAll('*');
  for (const el of document.querySelectorAll(selector)) marked.add(el);
  for (const el of document.querySelectorAll('a:not([href])[title], a:not([href])[role]')) marked.add(el);
  for (const el of listened) if (el && el.nodeType === 1 && el !== document.body && el !== document.documentElement) marked.add(el);
  for (const el of all) {
    if (el.tagName === 'LABEL' || el.tagName === 'HTML' || el.tagName === 'BODY') continue;
    if (getComputedStyle(el).cursor !== 'pointer') continue;
    if (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') continue;
    if (el.parentElement && el.parentElement.closest(selector)) continue;
    marked.add(el);
  }
  let count = 0;
  for (const el of marked) if (visible(el)) { el.setAttribute('data-argus-census', ''); count++; }
  return count;
}`;

/**
 * Elements with click-type listeners, as remote objects in the isolated world (for the census). Asked
 * of the page's own document: asked of the isolated world's, Chromium wraps the page's handlers into
 * that world and the renderer locks up (see packages/snapshot/src/listeners.ts).
 */
async function listenedObjects(page, contextId) {
  const { result } = await page.session.send('Runtime.evaluate', {
    expression: 'document',
    contextId: page.frames.mainWorld(page.mainFrameId),
    objectGroup: 'census',
  });
  const { listeners } = await page.session.send('DOMDebugger.getEventListeners', {
    objectId: result.objectId,
    depth: -1,
    pierce: true,
  });
  await page.session.send('Runtime.releaseObjectGroup', { objectGroup: 'census' }).catch(() => undefined);
  const ids = [
    ...new Set(
      listeners
        .filter(
          (l) =>
            /^(?:click|mousedown|mouseup|pointerdown|pointerup|touchstart|touchend|dblclick)$/.test(l.type) &&
            l.backendNodeId,
        )
        .map((l) => l.backendNodeId),
    ),
  ];
  const objects = await Promise.all(
    ids.map((backendNodeId) =>
      page.session
        .send('DOM.resolveNode', { backendNodeId, executionContextId: contextId })
        .then((r) => r.object.objectId)
        .catch(() => undefined),
    ),
  );
  return objects.filter(Boolean);
}

async function coverageOf(page, engine, text) {
  const contextId = await page.frames.isolatedWorld(page.mainFrameId);
  const listened = await listenedObjects(page, contextId);
  await page.session.send('Runtime.callFunctionOn', {
    functionDeclaration: `function (...listened) { return (${CENSUS_FN}).call(null, ${JSON.stringify(SELECTOR)}, listened); }`,
    executionContextId: contextId,
    arguments: listened.map((objectId) => ({ objectId })),
  });
  const result = await page.evaluate(
    `(() => { const c = globalThis.__argus.coverage('[data-argus-census]'); for (const el of document.querySelectorAll('[data-argus-census]')) el.removeAttribute('data-argus-census'); return { ...c, token: globalThis.__argus.token }; })()`,
    { contextId },
  );
  const shown = new Set(refsIn(text));
  let covered = 0;
  for (const id of result.ids) {
    const ref = engine.refs.lookup(page.mainFrameId, result.token, id);
    if (ref && shown.has(ref)) covered++;
  }
  return { total: result.total, covered, missed: result.missed };
}

const rows = [];
const chromePath = await visitPages([...realPages, ...extra], server, async (page, name) => {
  const engine = new SnapshotEngine(page);
  const full = await engine.snapshot();
  const fullCoverage = await coverageOf(page, engine, full.text);
  const interactive = await engine.snapshot({ interactive: true });
  const interactiveCoverage = await coverageOf(page, engine, interactive.text);
  if (DUMP) {
    mkdirSync(DUMP, { recursive: true });
    writeFileSync(join(DUMP, `${name}.txt`), full.text);
    writeFileSync(join(DUMP, `${name}-i.txt`), interactive.text);
  }
  // ours first: once the AX tree is built the renderer keeps it up to date, which slows DOM work
  const ours = [];
  for (let run = 0; run < RUNS; run++) ours.push(await time(() => engine.snapshot()));
  await page.session.send('Accessibility.getFullAXTree', {}); // warm-up (enables accessibility)
  const ax = [];
  for (let run = 0; run < RUNS; run++) ax.push(await time(() => page.session.send('Accessibility.getFullAXTree', {})));
  await page.session.send('Accessibility.disable').catch(() => undefined);
  const elements = await page.evaluate('document.querySelectorAll("*").length');
  rows.push({
    name: name === '__generated5k' ? 'generated-5k' : name,
    elements,
    fullChars: full.text.length,
    iChars: interactive.text.length,
    refs: full.refs,
    fullCoverage,
    interactiveCoverage,
    ms: median(ours),
    axMs: median(ax),
  });
});

const pct = (c) => (c.total ? (100 * c.covered) / c.total : 100);
const pad = (value, width) => String(value).padStart(width);
console.log(
  `snapshot bench: ${realPages.length} real pages + generated-5k, ${RUNS} timed runs each (medians), Chromium ${chromePath}`,
);
console.log(
  `${'page'.padEnd(18)}${pad('elems', 7)}${pad('chars', 8)}${pad('tok', 7)}${pad('-i chars', 10)}${pad('-i tok', 8)}${pad('refs', 6)}${pad('cov', 8)}${pad('-i cov', 8)}${pad('snap ms', 9)}${pad('AX ms', 8)}${pad('ratio', 7)}`,
);
for (const row of rows) {
  console.log(
    `${row.name.padEnd(18)}${pad(row.elements, 7)}${pad(row.fullChars, 8)}${pad(Math.round(row.fullChars / 4), 7)}${pad(row.iChars, 10)}${pad(Math.round(row.iChars / 4), 8)}${pad(row.refs, 6)}` +
      `${pad(pct(row.fullCoverage).toFixed(1) + '%', 8)}${pad(pct(row.interactiveCoverage).toFixed(1) + '%', 8)}${pad(row.ms.toFixed(1), 9)}${pad(row.axMs.toFixed(1), 8)}${pad((row.ms / row.axMs).toFixed(2), 7)}`,
  );
}
const real = rows.filter((row) => row.name !== 'generated-5k');
const sum = (list, key) => list.reduce((total, row) => total + row[key], 0);
const covered = real.reduce((t, r) => t + r.fullCoverage.covered, 0);
const total = real.reduce((t, r) => t + r.fullCoverage.total, 0);
const iCovered = real.reduce((t, r) => t + r.interactiveCoverage.covered, 0);
console.log('');
console.log(
  `real pages total: ${sum(real, 'fullChars')} chars (${Math.round(sum(real, 'fullChars') / 4)} tok) default, ${sum(real, 'iChars')} chars (${Math.round(sum(real, 'iChars') / 4)} tok) -i; coverage ${covered}/${total} default, ${iCovered}/${total} -i`,
);
console.log(
  `real pages median: default ${Math.round(median(real.map((r) => r.fullChars / 4)))} tok (target <= 4000), -i ${Math.round(median(real.map((r) => r.iChars / 4)))} tok (target <= 750)`,
);
console.log(
  `real pages median: snapshot ${median(real.map((r) => r.ms)).toFixed(1)} ms (target <= 40), getFullAXTree ${median(real.map((r) => r.axMs)).toFixed(1)} ms, ratio ${median(real.map((r) => r.ms / r.axMs)).toFixed(2)}`,
);
console.log(
  `min coverage on a real page: default ${Math.min(...real.map((r) => pct(r.fullCoverage))).toFixed(1)}%, -i ${Math.min(...real.map((r) => pct(r.interactiveCoverage))).toFixed(1)}% (target >= 99%)`,
);
const gen = rows.find((row) => row.name === 'generated-5k');
if (gen)
  console.log(
    `generated-5k: ${gen.elements} elements, snapshot ${gen.ms.toFixed(1)} ms vs getFullAXTree ${gen.axMs.toFixed(1)} ms: ratio ${(gen.ms / gen.axMs).toFixed(2)} (target <= 0.7)`,
  );
for (const row of rows) {
  const missed = [...row.fullCoverage.missed, ...row.interactiveCoverage.missed];
  if (missed.length && pct(row.fullCoverage) < 100)
    console.log(`  ${row.name} missed: ${missed.slice(0, 3).join(' | ').slice(0, 400)}`);
}
