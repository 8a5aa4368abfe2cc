/**
 * Tabs in the CLI's plain text are named one way: by the short id `argus tabs` lists and every
 * `--tab` / `argus tab` accepts (`4E0E`), never by the 32-character target id a result carries
 * (`closetab`, a click that opened a tab, `route`, `tab-each`, `watch`, …). `--json` keeps the full ids.
 */

import { shortIds } from '@argus/protocol/tab-ids';

/** A CDP target id: 32 hex digits. */
const TARGET_ID = /^[0-9A-F]{32}$/;

/** Every string in a result that is a target id. */
function targetIds(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (TARGET_ID.test(value)) found.add(value);
  } else if (Array.isArray(value)) for (const item of value) targetIds(item, found);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) targetIds(item, found);
  return found;
}

/** The result with every string that is one of `names`' ids replaced by its short id (a copy; the input is left as is). */
function renamed(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return names.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => renamed(item, names));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renamed(item, names)]));
  return value;
}

/**
 * A result to render as text, its tab ids shortened as `argus tabs` shows them: unique among the
 * tabs open now (asked of the daemon with `listTabs`, only when the result names a tab) and the ones
 * it names that have closed since. A failed listing leaves the ids as they are.
 */
export async function withShortTabIds(
  value: unknown,
  listTabs: () => Promise<{ tabs: ReadonlyArray<{ id: string }> }>,
): Promise<unknown> {
  const named = targetIds(value);
  if (named.size === 0) return value;
  const open = await listTabs().then(
    ({ tabs }) => tabs.map((tab) => tab.id),
    () => undefined,
  );
  if (!open) return value;
  const names = shortIds([...new Set([...open, ...named])]);
  return renamed(value, names);
}
