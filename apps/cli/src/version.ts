import { readFileSync } from 'node:fs';

/**
 * The version of the package this CLI was built into. Both the workspace's @argus/cli and the packed
 * `argus` package keep their bundled files in dist/ beside package.json, so it is read from there
 * (only for `argus --version`, never on the hot path).
 */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    name?: unknown;
    version?: unknown;
  };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
