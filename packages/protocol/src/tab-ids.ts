/** The least a short tab id is: long enough to stay unique as tabs come and go, short enough to type. */
export const MIN_SHORT_ID = 4;

/**
 * Each tab id's shortest prefix (at least MIN_SHORT_ID characters) that no other id in the list
 * shares: the one way tabs are named to people (`argus tabs`, the CLI's plain text, error messages).
 */
export function shortIds(ids: readonly string[]): Map<string, string> {
  const result = new Map<string, string>();
  for (const id of ids) {
    let length = Math.min(MIN_SHORT_ID, id.length);
    while (length < id.length && ids.some((other) => other !== id && other.startsWith(id.slice(0, length)))) length++;
    result.set(id, id.slice(0, length));
  }
  return result;
}
