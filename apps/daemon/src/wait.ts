import { ArgusError, type ParsedInputOf, type Manifest } from '@argus/protocol';
import type { Page } from '@argus/cdp';
import { type SnapshotEngine, describeLocator, parseLocator } from '@argus/snapshot';
import type { DownloadTracker } from './downloads.js';

type WaitInput = ParsedInputOf<Manifest['page']['wait']>;

const REF = /^@?(f\d+)?e\d+$/;

/**
 * In-page wait for a selector to be visible or a text to appear: a MutationObserver plus
 * a timeout, resolved by the page itself, so the daemon never polls.
 */
const WAIT_IN_PAGE = `(mode, needle, timeoutMs) => new Promise((resolve) => {
  const visible = (el) => !!el && el.isConnected && (typeof el.checkVisibility === 'function' ? el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true }) : el.getClientRects().length > 0);
  const test = () => {
    if (mode === 'selector') { const el = document.querySelector(needle); return visible(el); }
    return (document.body?.innerText ?? '').includes(needle);
  };
  if (test()) return resolve(true);
  const observer = new MutationObserver(() => { if (test()) { clearTimeout(timer); observer.disconnect(); resolve(true); } });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const timer = setTimeout(() => { observer.disconnect(); resolve(false); }, timeoutMs);
})`;

export async function waitFor(page: Page, engine: SnapshotEngine, input: WaitInput, downloads?: DownloadTracker): Promise<{ waitedMs: number; matched: string }> {
  const started = performance.now();
  const done = (matched: string) => ({ waitedMs: Math.round(performance.now() - started), matched });
  const modes = [input.selector, input.text, input.load, input.idle, input.ms, input.download].filter((value) => value !== undefined && value !== false);
  if (modes.length !== 1) {
    throw new ArgusError('invalid_input', 'Give exactly one thing to wait for: a selector, --text, --load, --idle, --download or --ms. Example: `argus wait "#results"`.');
  }
  if (input.download) {
    if (!downloads) throw new ArgusError('unsupported', 'Downloads are not tracked in this daemon.');
    // the oldest download no command has reported yet: one that already finished counts too
    const record = await downloads.waitFor((candidate) => !candidate.claimed, input.timeoutMs, 'A download');
    return done(`download ${record.path ?? record.url} (${record.bytes} bytes)`);
  }
  if (input.ms !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, input.ms));
    return done(`${input.ms} ms`);
  }
  if (input.load) {
    const ready = await page.evaluate<string>('document.readyState');
    if (ready !== 'complete') {
      await page.session.waitFor('Page.loadEventFired', { timeoutMs: input.timeoutMs }).catch(() => {
        throw new ArgusError('timeout', `The page did not fire load within ${input.timeoutMs} ms.`);
      });
    }
    return done('load');
  }
  if (input.idle) {
    await page.waitForNetworkIdle(500, input.timeoutMs);
    return done('network idle');
  }
  if (input.selector && REF.test(input.selector)) {
    // a ref exists already or fails fast; wait until it is visible
    const element = await engine.resolve(input.selector);
    const ok = await page.callOn<boolean>(element.objectId, `function (t) { return (${WAIT_IN_PAGE.replace("document.querySelector(needle)", 'this')})('selector', '', t); }`, [input.timeoutMs], element.session);
    if (!ok) throw new ArgusError('timeout', `${element.label} did not become visible within ${input.timeoutMs} ms.`);
    return done(input.selector);
  }
  const locator = input.selector ? parseLocator(input.selector) : undefined;
  if (locator) {
    if (!(await engine.waitForLocator(locator, input.timeoutMs))) {
      throw new ArgusError('timeout', `No visible element matched ${describeLocator(locator)} within ${input.timeoutMs} ms. Check with \`argus snapshot\`.`);
    }
    return done(describeLocator(locator));
  }
  const mode = input.selector ? 'selector' : 'text';
  const needle = (input.selector ?? input.text) as string;
  if (mode === 'selector') {
    try {
      await page.evaluate(`document.querySelector(${JSON.stringify(needle)})`);
    } catch {
      throw new ArgusError('invalid_input', `"${needle}" is not a valid CSS selector.`);
    }
  }
  const ok = await page.evaluate<boolean>(`(${WAIT_IN_PAGE})(${JSON.stringify(mode)}, ${JSON.stringify(needle)}, ${input.timeoutMs})`);
  if (!ok) {
    throw new ArgusError('timeout', `${mode === 'selector' ? `No visible element matched ${needle}` : `The text "${needle}" did not appear`} within ${input.timeoutMs} ms. Check with \`argus snapshot\`.`);
  }
  return done(mode === 'selector' ? needle : `text "${needle}"`);
}
