import type { Handlers } from '@argus/protocol';
import { elementHtml, elementText } from '@argus/snapshot';
import type { Services } from '../services.js';

export function contentHandlers(services: Services): Handlers['content'] {
  const { manager } = services;
  // with a frame selected (`argus frame`), the whole-page read is of that frame's document
  const frameRoot = (page: Parameters<typeof manager.selectedFrame>[0]) => (manager.selectedFrame(page) ? 'html' : undefined);
  return {
    text: (input) => manager.onTab(input.tab, (page) => elementText(manager.engine(page), input.target ?? frameRoot(page), input.maxChars)),
    html: (input) => manager.onTab(input.tab, (page) => elementHtml(manager.engine(page), input.target ?? frameRoot(page), input.maxChars)),
  };
}
