import { randomBytes } from 'node:crypto';
import { type Page, runInCommandScope } from '@argus/cdp';
import type { AnnotationData } from '@argus/protocol';
import {
  ARGUS_SCRIPT,
  PICKER_CLOSE,
  PICKER_COLLECT,
  PICKER_OPEN,
  type PickerCollection,
  type SnapshotEngine,
  locatorText,
} from '@argus/snapshot';
import { evaluateInPage, isolatedContext } from '../page-eval.js';
import type { NewAnnotation } from './inbox-store.js';

/** How the person ended the picker (or what ended it for them). */
export type PickerOutcome =
  | { status: 'sent'; annotation: Omit<NewAnnotation, 'source'> }
  | { status: 'cancelled' | 'timeout'; reason: string };

export interface PickerOptions {
  prompt: string | undefined;
  timeoutMs: number;
  /** The caller going away ends the picker (removed from the page). */
  signal?: AbortSignal | undefined;
  /**
   * Runs work on the tab in its turn (the tab's queue). Opening the picker and reading what was
   * sent take a turn each; the wait for the person between them takes none, so the agent's reads,
   * `argus watch` (the person's way to the picker on a headless browser) and other commands on the
   * tab go on meanwhile. Default: at once.
   */
  inTab?: <T>(work: () => Promise<T>) => Promise<T>;
}

/** Text excerpts are cut in the page to this many characters (the 64 KiB cap cuts further if needed). */
const MAX_TEXT = 2000;

type Signal = { kind: 'send' } | { kind: 'cancel' | 'timeout' | 'gone'; reason: string };

/**
 * Runs the annotation picker on a tab: installs the walker and the picker in Argus's isolated world,
 * exposes a CDP binding to that world only (`Runtime.addBinding` with its context name, so page
 * scripts cannot call it or forge a send), and waits for the binding (send or cancel), the timeout,
 * a main-frame navigation (the picker is gone with its document) or the tab closing. Every path
 * removes the binding and, when the document is still there, the picker.
 */
export async function runAnnotationPicker(
  page: Page,
  engine: SnapshotEngine,
  options: PickerOptions,
): Promise<PickerOutcome> {
  const inTab = options.inTab ?? (<T>(work: () => Promise<T>) => work());
  page.assertOpen();
  const session = page.session;
  const binding = `__argusAnnotate_${randomBytes(6).toString('hex')}`;
  const contextId = await inTab(async () => {
    const id = await isolatedContext(page);
    await page.evaluate(`(${ARGUS_SCRIPT}), true`, { contextId: id });
    await session.send('Runtime.addBinding', { name: binding, executionContextName: page.frames.worldName });
    return id;
  });
  const cleanups: Array<() => void> = [];
  try {
    let settle!: (signal: Signal) => void;
    const ended = new Promise<Signal>((resolve) => (settle = resolve));
    cleanups.push(
      session.on('Runtime.bindingCalled', (event) => {
        // only our isolated world has the binding; the context check makes that explicit
        if (event.name !== binding || event.executionContextId !== contextId) return;
        settle(parseSignal(event.payload));
      }),
      page.onEpoch(() => settle({ kind: 'gone', reason: 'the page navigated away; the picker went with it' })),
      session.onDetach(() => settle({ kind: 'gone', reason: 'the tab closed' })),
    );
    const timer = setTimeout(
      () =>
        settle({
          kind: 'timeout',
          reason: `nobody sent an annotation within ${Math.round(options.timeoutMs / 1000)} s`,
        }),
      options.timeoutMs,
    );
    cleanups.push(() => clearTimeout(timer));
    if (options.signal) {
      const signal = options.signal;
      const abort = () => settle({ kind: 'cancel', reason: 'the caller went away' });
      if (signal.aborted) abort();
      signal.addEventListener('abort', abort, { once: true });
      cleanups.push(() => signal.removeEventListener('abort', abort));
    }
    const opened = await inTab(() =>
      evaluateInPage(page, PICKER_OPEN, [binding, options.prompt ?? null], { contextId }),
    );
    if (!opened.opened) return { status: 'cancelled', reason: 'the page has no document to annotate' };
    const signal = await ended;
    if (signal.kind === 'gone') return { status: 'cancelled', reason: signal.reason };
    // the wait may have outlived the command's own deadline: what follows gets a fresh, short one
    return await runInCommandScope({ timeoutMs: 30_000 }, () =>
      inTab(async (): Promise<PickerOutcome> => {
        if (signal.kind === 'send') {
          const collection = await evaluateInPage(page, PICKER_COLLECT, [MAX_TEXT], { contextId });
          return { status: 'sent', annotation: toAnnotation(collection, page, engine) };
        }
        if (!page.closed) await evaluateInPage(page, PICKER_CLOSE, [], { contextId }).catch(() => undefined);
        return { status: signal.kind === 'timeout' ? 'timeout' : 'cancelled', reason: signal.reason };
      }),
    );
  } finally {
    for (const cleanup of cleanups) cleanup();
    if (!page.closed)
      await runInCommandScope({ timeoutMs: 5_000 }, () =>
        session.send('Runtime.removeBinding', { name: binding }),
      ).catch(() => undefined);
  }
}

function parseSignal(payload: string): Signal {
  try {
    const parsed = JSON.parse(payload) as { event?: unknown };
    if (parsed.event === 'send') return { kind: 'send' };
  } catch {
    // not ours: treated as a cancel below
  }
  return { kind: 'cancel', reason: 'the person cancelled' };
}

/** The page's collection as an annotation: refs minted by the tab's engine, locators as target text. */
function toAnnotation(collection: PickerCollection, page: Page, engine: SnapshotEngine): Omit<NewAnnotation, 'source'> {
  const elements: AnnotationData['elements'] = collection.elements.map((element) => ({
    note: element.note,
    locator: element.locator ? locatorText(element.locator) : null,
    ref: collection.token ? engine.refForTopElement(collection.token, element.id, element.label) : null,
    role: element.role,
    name: element.name,
    text: element.text,
    box: element.box,
    value: element.value,
    masked: element.masked,
  }));
  return { tab: page.id, url: collection.url, title: collection.title, elements };
}
