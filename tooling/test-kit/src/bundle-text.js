import { readFileSync } from 'node:fs';

/**
 * Where a built bundle first holds a character outside ASCII, with some text around it ('' when it
 * holds none). A bundle run from the code cache must be ASCII only: one other character makes Node
 * decode the whole source the slow way at each start (codeCacheBundle in @argus/bundle-plugins).
 * @param {string} file
 * @returns {string}
 */
export function firstNonAscii(file) {
  const text = readFileSync(file, 'latin1');
  const at = text.search(/[\u0080-\uffff]/);
  return at === -1 ? '' : text.slice(Math.max(0, at - 60), at + 20);
}
