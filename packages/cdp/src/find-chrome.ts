import { accessSync, constants, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ArgusError } from '@argus/protocol/errors';

/**
 * The one Chrome finder of the repo (the daemon, the extension tests and the benches all use it).
 * Order: CHROME_PATH, the system installs (the real Debian binary first: its /usr/bin wrapper adds
 * flags), Chrome for Testing that `argus install-browser` put in Argus's own cache, then the
 * Puppeteer and Playwright caches a developer machine often already has.
 */
export const SYSTEM_CHROME_PATHS = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
] as const;

export interface ChromeCandidate {
  path: string;
  /** Where it came from, for messages: `CHROME_PATH`, `system`, `argus cache`, `puppeteer cache`, `playwright cache`. */
  source: string;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function subdirs(dir: string): string[] {
  try {
    // newest build first: version-named folders sort so that the highest comes first
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  } catch {
    return [];
  }
}

/** Home-relative cache dirs, honouring the tools' own overrides and XDG_CACHE_HOME. */
export function browserCacheDirs(env: NodeJS.ProcessEnv = process.env): {
  argus: string;
  puppeteer: string;
  playwright: string;
} {
  const home = env.HOME?.trim() || homedir();
  const cache = env.XDG_CACHE_HOME?.trim() || join(home, '.cache');
  return {
    argus: env.ARGUS_BROWSERS_DIR?.trim() || join(cache, 'argus', 'browsers'),
    puppeteer: env.PUPPETEER_CACHE_DIR?.trim() || join(home, '.cache', 'puppeteer'),
    playwright: env.PLAYWRIGHT_BROWSERS_PATH?.trim() || join(cache, 'ms-playwright'),
  };
}

/** Chrome for Testing layouts as @puppeteer/browsers unpacks them: <root>/chrome/<platform>-<version>/chrome-<platform>/chrome. */
function puppeteerLayout(root: string): string[] {
  const found: string[] = [];
  for (const version of subdirs(join(root, 'chrome'))) {
    for (const inner of subdirs(join(root, 'chrome', version))) {
      found.push(join(root, 'chrome', version, inner, 'chrome'));
      found.push(
        join(
          root,
          'chrome',
          version,
          inner,
          'Google Chrome for Testing.app',
          'Contents',
          'MacOS',
          'Google Chrome for Testing',
        ),
      );
    }
  }
  return found;
}

/** Playwright: <root>/chromium-<rev>/chrome-linux{,64}/chrome. */
function playwrightLayout(root: string): string[] {
  return subdirs(root)
    .filter((name) => /^chromium-\d+$/.test(name))
    .flatMap((name) => [join(root, name, 'chrome-linux64', 'chrome'), join(root, name, 'chrome-linux', 'chrome')]);
}

/** Every place looked at, in order (existing or not), so an error can name them. */
export function chromeCandidates(
  env: NodeJS.ProcessEnv = process.env,
  systemPaths: readonly string[] = SYSTEM_CHROME_PATHS,
): ChromeCandidate[] {
  const dirs = browserCacheDirs(env);
  return [
    ...systemPaths.map((path) => ({ path, source: 'system' })),
    ...puppeteerLayout(dirs.argus).map((path) => ({ path, source: 'argus cache' })),
    ...puppeteerLayout(dirs.puppeteer).map((path) => ({ path, source: 'puppeteer cache' })),
    ...playwrightLayout(dirs.playwright).map((path) => ({ path, source: 'playwright cache' })),
  ];
}

/**
 * The Chrome to use, or undefined when there is none. Throws only for a CHROME_PATH that is not
 * executable. `systemPaths` is replaceable so tests can play a fresh machine on one that has Chromium.
 */
export function locateChrome(
  env: NodeJS.ProcessEnv = process.env,
  systemPaths: readonly string[] = SYSTEM_CHROME_PATHS,
): ChromeCandidate | undefined {
  const fromEnv = env.CHROME_PATH?.trim();
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { path: fromEnv, source: 'CHROME_PATH' };
    throw new ArgusError(
      'browser_not_found',
      `CHROME_PATH is set to ${fromEnv}, which is not an executable file. Fix the path or unset CHROME_PATH.`,
    );
  }
  return chromeCandidates(env, systemPaths).find((candidate) => isExecutable(candidate.path));
}

/** What to tell a user who has no browser. */
export function noBrowserMessage(env: NodeJS.ProcessEnv = process.env): string {
  const dirs = browserCacheDirs(env);
  return (
    `No Chrome or Chromium found (looked at CHROME_PATH, ${SYSTEM_CHROME_PATHS.slice(0, 3).join(', ')} and other system paths, ` +
    `and the caches ${dirs.argus}, ${dirs.puppeteer}, ${dirs.playwright}). Run \`argus install-browser\` to install one, ` +
    'or set CHROME_PATH to a Chrome binary.'
  );
}

/** Finds a Chrome binary (see locateChrome) or throws `browser_not_found` saying what to do. */
export function findChrome(
  env: NodeJS.ProcessEnv = process.env,
  systemPaths: readonly string[] = SYSTEM_CHROME_PATHS,
): string {
  const found = locateChrome(env, systemPaths);
  if (found) return found.path;
  throw new ArgusError('browser_not_found', noBrowserMessage(env));
}
