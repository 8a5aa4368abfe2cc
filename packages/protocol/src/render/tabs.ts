import { titled } from './format.js';
import type { OutputOf, RenderersOf } from './types.js';

type Tab = OutputOf<'tabs.open'>;
type Lease = OutputOf<'tabs.leases'>['leases'][number];

/** One lease: tab, holder and time left (never its id). */
export function leaseLine(lease: Lease): string {
  return `tab ${lease.tab}  held by ${lease.holder}${lease.yours ? ' (you)' : ''}  expires in ${Math.ceil(lease.expiresInMs / 1000)} s (${lease.expiresAt})`;
}
// a tab is named by its short id everywhere in text (what `argus tab` and `--tab` take); `tabs` adds its index
const tabLine = (verb: string, tab: Tab) => `${verb} tab ${tab.shortId}: ${titled(tab.title, tab.url)}`;

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
  'tabs.lease': (output) =>
    [
      `${output.renewed ? 'renewed' : 'leased'} tab ${output.tab} for ${Math.round(output.ttlMs / 1000)} s (renewed by each of your commands on it)`,
      `lease ${output.lease}`,
      `send it back with every command: export ARGUS_LEASE=${output.lease}  (or --lease ${output.lease})`,
    ].join('\n'),
  'tabs.release': (output) =>
    output.released.length ? `released the lease on tab ${output.released.join(', ')}` : 'no lease to release',
  'tabs.leases': (output) => output.leases.map(leaseLine).join('\n') || '(no leases)',
};
