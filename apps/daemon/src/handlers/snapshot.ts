import type { Handlers } from '@argus/protocol';
import type { Services } from '../services.js';

export function snapshotHandlers(services: Services): Handlers['snapshot'] {
  const { manager } = services;
  return {
    take: (input) =>
      manager.onTab(input.tab, async (page) => {
        const result = await manager.engine(page).snapshot({
          interactive: input.interactive,
          ...(input.depth === undefined ? {} : { depth: input.depth }),
          ...(input.scope === undefined ? {} : { scope: input.scope }),
        });
        return { url: result.url, title: result.title, text: result.text, refs: result.refs };
      }),
  };
}
