import type { Handlers } from '@argus/protocol';
import { NEXT_DOCUMENT_WAIT_MS, acrossNavigation, stillLoading } from '../across-navigation.js';
import { withDialogs } from '../capture-entries.js';
import type { Services } from '../services.js';

export function snapshotHandlers(services: Services): Handlers['snapshot'] {
  const { manager } = services;
  return {
    take: (input) =>
      manager.onTab(input.tab, async (page) => {
        // a page that navigates by itself during the snapshot: its next document is the one shown
        const result = await acrossNavigation(
          page,
          NEXT_DOCUMENT_WAIT_MS,
          () =>
            manager.engine(page).snapshot({
              ...(input.interactive === undefined ? {} : { interactive: input.interactive }),
              diff: input.diff,
              ...(input.depth === undefined ? {} : { depth: input.depth }),
              ...(input.scope === undefined ? {} : { scope: input.scope }),
              ...(input.maxChars === undefined ? {} : { maxChars: input.maxChars }),
              ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
            }),
          () => stillLoading('snapshot'),
        );
        return withDialogs(page, {
          url: result.url,
          title: result.title,
          text: result.text,
          refs: result.refs,
          truncated: result.truncated,
          ...(result.cursor === undefined ? {} : { cursor: result.cursor }),
          ...(result.pageChanged ? { pageChanged: true } : {}),
          ...(result.baseline === undefined ? {} : { baseline: result.baseline }),
        });
      }),
  };
}
