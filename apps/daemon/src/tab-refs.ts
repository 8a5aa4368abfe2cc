import { ArgusError } from '@argus/protocol';
import { MIN_SHORT_ID, shortIds } from '@argus/protocol/tab-ids';

export { MIN_SHORT_ID, shortIds };

/** Below this many characters an all-digit reference is an index; target ids are 32 hex characters. */
const INDEX_DIGITS = MIN_SHORT_ID;

interface TabLike {
  id: string;
}

// index and short id only: titles and URLs are page content and stay out of error messages
const describe = (tabs: readonly TabLike[], shorts: Map<string, string>) =>
  tabs.map((tab, index) => `${index + 1} (${shorts.get(tab.id) ?? tab.id})`);

/**
 * The full id a user's tab reference names, among the tabs the caller sees (in tab order): an
 * index (`2`, 1-based, fewer than 4 digits) or an id prefix of any length, case-insensitive (`37f0`,
 * a full id). An unknown or ambiguous reference is a typed error listing the tabs to choose from.
 */
export function resolveTabRef(tabs: readonly TabLike[], ref: string): string {
  const shorts = shortIds(tabs.map((tab) => tab.id));
  const trimmed = ref.trim();
  if (/^\d+$/.test(trimmed) && trimmed.length < INDEX_DIGITS) {
    const tab = tabs[Number(trimmed) - 1];
    if (tab) return tab.id;
    throw new ArgusError(
      'tab_not_found',
      `No tab ${trimmed}: there ${tabs.length === 1 ? 'is 1 tab' : `are ${tabs.length} tabs`}. Run \`argus tabs\` to list them.`,
      { details: { tabs: describe(tabs, shorts) } },
    );
  }
  const upper = trimmed.toUpperCase();
  const exact = tabs.find((tab) => tab.id.toUpperCase() === upper);
  if (exact) return exact.id;
  const matches = upper ? tabs.filter((tab) => tab.id.toUpperCase().startsWith(upper)) : [];
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length > 1) {
    const candidates = describe(tabs, shorts).filter((_line, index) => matches.includes(tabs[index]!));
    throw new ArgusError(
      'invalid_input',
      `Tab id prefix ${trimmed} matches ${matches.length} tabs: ${candidates.join('; ')}. Give more characters or the tab's index.`,
      { details: { candidates } },
    );
  }
  throw new ArgusError(
    'tab_not_found',
    `No tab with id ${trimmed}${tabs.length ? ` (open: ${describe(tabs, shorts).join('; ')})` : ''}. Run \`argus tabs\` to list tabs.`,
    { details: { tabs: describe(tabs, shorts) } },
  );
}
