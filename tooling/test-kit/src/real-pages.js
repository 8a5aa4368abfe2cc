import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { realPagesDir } from './paths.js';

/**
 * @typedef {object} RealPage
 * @property {string} name folder name, e.g. `cnn`
 * @property {string} path URL path on the fixture server, e.g. `/real/cnn/` (join with `server.url`)
 * @property {string} file absolute path of the saved `source.html`
 * @property {string} metadataFile absolute path of `expected-metadata.json`
 */

/** @type {RealPage[] | undefined} */
let cached;

/**
 * The vendored real-world pages, sorted by name.
 * @returns {RealPage[]}
 */
export function realPages() {
  cached ??= readdirSync(realPagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      name,
      path: `/real/${name}/`,
      file: join(realPagesDir, name, 'source.html'),
      metadataFile: join(realPagesDir, name, 'expected-metadata.json'),
    }));
  return cached.map((page) => ({ ...page }));
}
