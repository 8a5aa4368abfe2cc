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
  'tabs.close': (output, context) => {
    const closed = `closed tab ${output.closed}`;
    if (output.activeTab) return `${closed}; active tab ${output.activeTab}`;
    if (output.openTabs === 0) return `${closed}; no tabs left`;
    const opens = `a command without a tab opens a new one`;
    if (output.next) {
      const next = output.next;
      return [
        `${closed}; no tab is active.`,
        `tab ${next.shortId} is open but not attached (Argus attaches a tab of your browser only when a command names it): ${titled(next.title, next.url)}`,
        `${context.hint('tabs.select', { id: next.shortId })} attaches it and makes it active; ${opens}`,
      ].join('\n');
    }
    const one = output.openTabs === 1;
    // another session's tabs (the operator sees them all), or pages no debugger may attach to (chrome://)
    return `${closed}; no tab is active. ${one ? '1 tab is' : `${output.openTabs} tabs are`} still open (${context.hint('tabs.list')} lists ${one ? 'it' : 'them'}), none that a command picks by itself: ${opens}`;
  },
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
