import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Path of the daemon's entry: `daemon-main.js` (the daemon plus MCP on its tunnel listener). Both
 * @argus/plugin's build and the packed `argus` package (apps/release) put every entry and chunk in
 * one flat dist/, so it is the file beside this module; running from source (tests), it is the
 * built @argus/plugin's. The CLI and the MCP server both take it from here.
 */
export function daemonEntry(): string {
  const beside = fileURLToPath(new URL('./daemon-main.js', import.meta.url));
  return existsSync(beside) ? beside : createRequire(import.meta.url).resolve('@argus/plugin/daemon-main');
}
