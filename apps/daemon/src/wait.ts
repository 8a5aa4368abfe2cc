import { ArgusError, type ParsedInputOf, type Manifest } from '@argus/protocol';
import { type Page, untilCancelled } from '@argus/cdp';
import {
  READY_STATE,
  type SnapshotEngine,
  VALID_SELECTOR,
  WAIT_UNTIL,
  type WaitTest,
  describeLocator,
  parseLocator,
  parseRef,
} from '@argus/snapshot';
import { acrossNavigation } from './across-navigation.js';
import { type DocumentChoice, type DocumentWorld, inDocument } from './frame-scope.js';
import { callOnElement, evaluateInPage } from './page-eval.js';
import type { DownloadTracker } from './downloads.js';

type WaitInput = ParsedInputOf<Manifest['page']['wait']>;

export async function waitFor(
  page: Page,
  engine: SnapshotEngine,
  input: WaitInput,
  options: { downloads?: DownloadTracker; frames?: DocumentChoice } = {},
): Promise<{ waitedMs: number; matched: string }> {
  const { downloads, frames } = options;
  const started = performance.now();
  const done = (matched: string) => ({ waitedMs: Math.round(performance.now() - started), matched });
  const modes = [input.selector, input.text, input.load, input.idle, input.ms, input.download].filter(
    (value) => value !== undefined && value !== false,
  );
  if (modes.length !== 1) {
    throw new ArgusError(
      'invalid_input',
      'Give exactly one thing to wait for: a selector, --text, --load, --idle, --download or --ms. Example: `argus wait "#results"`.',
    );
  }
  if (input.download) {
    if (!downloads) throw new ArgusError('unsupported', 'Downloads are not tracked in this daemon.');
    // the oldest download no command has reported yet: one that already finished counts too
    const record = await downloads.waitFor((candidate) => !candidate.claimed, input.timeoutMs, 'A download');
    return done(`download ${record.path ?? record.url} (${record.bytes} bytes)`);
  }
  // the waits below are no CDP calls: untilCancelled ends them when the caller goes away
  if (input.ms !== undefined) {
    await untilCancelled(new Promise((resolve) => setTimeout(resolve, input.ms).unref()));
    return done(`${input.ms} ms`);
  }
  if (input.load) {
    // the load of the frame chosen with `argus frame`, else of the top document
    if (frames) await inDocument(frames, page, 'main', (where) => untilLoaded(page, where, input.timeoutMs));
    else await untilLoaded(page, { frameId: page.mainFrameId, session: page.session }, input.timeoutMs);
    return done('load');
  }
  if (input.idle) {
    await untilCancelled(page.waitForNetworkIdle(500, input.timeoutMs));
    return done('network idle');
  }
  // a page that navigates by itself during the wait: the wait goes on in its next document
  const matched = await acrossNavigation(
    page,
    input.timeoutMs,
    (leftMs) => waitInDocument(page, engine, input, leftMs),
    () => notFound(input),
  );
  return done(matched);
}

/**
 * Until the document of `where` has fired load: the top document's `Page.loadEventFired`, a frame's
 * `Page.frameStoppedLoading` on the session that owns it (after its load event). Listened to before
 * the ready state is read, so a load in between is not missed.
 */
async function untilLoaded(page: Page, where: DocumentWorld, timeoutMs: number): Promise<void> {
  const top = where.frameId === page.mainFrameId;
  const stop = new AbortController();
  const loaded = top
    ? page.session.waitFor('Page.loadEventFired', { timeoutMs, signal: stop.signal })
    : where.session.waitFor('Page.frameStoppedLoading', {
        timeoutMs,
        signal: stop.signal,
        predicate: (event) => event.frameId === where.frameId,
      });
  loaded.catch(() => undefined);
  try {
    if ((await evaluateInPage(page, READY_STATE, [], where)) === 'complete') return;
    await untilCancelled(
      loaded.then(
        () => undefined,
        () => {
          const what = top ? 'The page' : 'The frame chosen with `argus frame`';
          throw new ArgusError('timeout', `${what} did not fire load within ${timeoutMs} ms.`);
        },
      ),
    );
  } finally {
    // the listener goes with the answer
    stop.abort();
  }
}

/** What a selector or text wait reports when its time is up. */
function notFound(input: WaitInput): ArgusError {
  const what = input.selector
    ? `No visible element matched ${input.selector}`
    : `The text "${input.text ?? ''}" did not appear`;
  return new ArgusError('timeout', `${what} within ${input.timeoutMs} ms. Check with \`argus snapshot\`.`);
}

/**
 * A selector, ref, locator or text wait in the tab's current document, for at most `leftMs`: in the
 * frame chosen with `argus frame` when there is one (the engine's locator frame), but a ref's own.
 */
async function waitInDocument(page: Page, engine: SnapshotEngine, input: WaitInput, leftMs: number): Promise<string> {
  // each wait below is resolved by the page itself (WAIT_UNTIL: a MutationObserver plus a timeout), so the daemon never polls
  if (input.selector && parseRef(input.selector)) {
    // a ref exists already or fails fast; wait until it is visible
    const element = await engine.resolve(input.selector);
    const ok = await callOnElement(page, element, WAIT_UNTIL, { kind: 'visible' }, leftMs);
    if (!ok)
      throw new ArgusError('timeout', `${element.label} did not become visible within ${input.timeoutMs} ms.`, {
        details: { element: element.label },
      });
    return input.selector;
  }
  const locator = input.selector ? parseLocator(input.selector) : undefined;
  if (locator) {
    if (!(await engine.waitForLocator(locator, leftMs))) {
      throw new ArgusError(
        'timeout',
        `No visible element matched ${describeLocator(locator)} within ${input.timeoutMs} ms. Check with \`argus snapshot\`.`,
      );
    }
    return describeLocator(locator);
  }
  const mode = input.selector ? 'selector' : 'text';
  const needle = (input.selector ?? input.text) as string;
  if (mode === 'selector') {
    if (!(await evaluateInPage(page, VALID_SELECTOR, [needle])))
      throw new ArgusError('invalid_input', `"${needle}" is not a valid CSS selector.`);
  }
  const test: WaitTest = mode === 'selector' ? { kind: 'selector', selector: needle } : { kind: 'text', text: needle };
  if (!(await engine.waitUntilShown(test, leftMs))) throw notFound(input);
  return mode === 'selector' ? needle : `text "${needle}"`;
}
