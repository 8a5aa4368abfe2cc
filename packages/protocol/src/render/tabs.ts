import { titled } from './format.js';
import type { OutputOf, RenderersOf } from './types.js';

type Tab = OutputOf<'tabs.open'>;
const tabLine = (verb: string, tab: Tab) => `${verb} tab ${tab.id}: ${titled(tab.title, tab.url)}`;

export const tabRenderers: RenderersOf<'tabs'> = {
  'tabs.list': (output) =>
    output.tabs
      .map((tab) => `${tab.active ? '*' : ' '} ${tab.id}  ${tab.title || '(untitled)'}  ${tab.url}`)
      .join('\n') || '(no tabs)',
  'tabs.open': (output) => tabLine('opened', output),
  'tabs.select': (output) => tabLine('switched to', output),
  'tabs.close': (output) =>
    `closed tab ${output.closed}; ${output.activeTab ? `active tab ${output.activeTab}` : 'no tabs left'}`,
};
