import { titled } from './format.js';
import type { OutputOf, RenderersOf } from './types.js';

type Tab = OutputOf<'tabs.open'>;
const tabLine = (verb: string, tab: Tab) => `${verb} tab ${tab.index} (${tab.shortId}): ${titled(tab.title, tab.url)}`;

export const tabRenderers: RenderersOf<'tabs'> = {
  // `* 2  37F0  Title  url`: the index and the short id are what `tab` accepts
  'tabs.list': (output) => {
    const width = String(output.tabs.length).length;
    return (
      output.tabs
        .map(
          (tab) =>
            `${tab.active ? '*' : ' '} ${String(tab.index).padStart(width)}  ${tab.shortId}  ${tab.title || '(untitled)'}  ${tab.url}`,
        )
        .join('\n') || '(no tabs)'
    );
  },
  'tabs.open': (output) => tabLine('opened', output),
  'tabs.select': (output) => tabLine('switched to', output),
  'tabs.close': (output) =>
    `closed tab ${output.closed}; ${output.activeTab ? `active tab ${output.activeTab}` : 'no tabs left'}`,
};
