import type { BrowserManager } from '../browser-manager.js';
import type { Logger } from '../logger.js';
import { runAnnotationPicker } from './annotate-picker.js';
import type { InboxStore } from './inbox-store.js';

/** How long the picker the popup button opens waits for the person (nobody else waits for it). */
const POPUP_PICKER_MS = 10 * 60_000;

/**
 * The extension's "Annotate this page" button: the picker runs on the person's tab like `argus
 * annotate`, but no command waits for it; what they send goes to the inbox (source `extension`),
 * where agents find it. A refusal (no such tab, not in extension mode) is logged, never thrown.
 */
export function annotateForExtension(
  deps: { manager: BrowserManager; inbox: () => InboxStore; log: Logger },
  targetId: string,
): void {
  const { manager, log } = deps;
  void manager
    .onTab(targetId, async (page) => page)
    .then((page) =>
      // the tab's queue is taken to open the picker and to read what was sent, not while the person
      // works: an agent keeps using the tab meanwhile (PickerOptions.inTab)
      runAnnotationPicker(page, manager.engine(page), {
        prompt: 'Argus: click the elements you mean, note each, then Send (Escape cancels).',
        timeoutMs: POPUP_PICKER_MS,
        inTab: (work) => manager.onTab(page.id, () => work()),
      }),
    )
    .then((outcome) => {
      if (outcome.status !== 'sent')
        return log.info('annotate.extension_ended', { status: outcome.status, reason: outcome.reason });
      const { item, duplicate } = deps.inbox().add({ ...outcome.annotation, source: 'extension' });
      log.info('annotate.extension_sent', { id: item.id, elements: item.elements.length, duplicate });
    })
    .catch((error: unknown) => log.warn('annotate.extension_failed', { message: (error as Error).message }));
}
