import type { Handlers } from '@argus/protocol';
import { elementHtml, elementText } from '@argus/snapshot';
import type { Services } from '../services.js';

export function contentHandlers(services: Services): Handlers['content'] {
  const { manager } = services;
  return {
    text: (input) => manager.onTab(input.tab, (page) => elementText(manager.engine(page), input.target, input.maxChars)),
    html: (input) => manager.onTab(input.tab, (page) => elementHtml(manager.engine(page), input.target, input.maxChars)),
  };
}
