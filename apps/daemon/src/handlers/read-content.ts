import type { Page } from '@argus/cdp';
import type { Handlers } from '@argus/protocol';
import { elementHtml } from '@argus/snapshot';
import { NEXT_DOCUMENT_WAIT_MS, acrossNavigation, stillLoading } from '../across-navigation.js';
import { withDialogs } from '../capture-entries.js';
import { selectedFrameRoot } from '../frame-scope.js';
import type { Services } from '../services.js';

export function readContentHandlers(services: Services): Pick<Handlers['read'], 'text' | 'html'> {
  const { manager } = services;
  const frameRoot = (page: Page) => selectedFrameRoot(manager, page);
  return {
    // both carry the dialogs since the previous reply: an agent often reads right after an action
    text: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          // a page that navigates by itself during the read: its next document is the one read
          await acrossNavigation(
            page,
            NEXT_DOCUMENT_WAIT_MS,
            () => manager.engine(page).text(input.target ?? frameRoot(page), input.maxChars),
            () => stillLoading('text read'),
          ),
        ),
      ),
    html: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(page, await elementHtml(manager.engine(page), input.target ?? frameRoot(page), input.maxChars)),
      ),
  };
}
