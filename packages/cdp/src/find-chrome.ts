import { accessSync, constants } from 'node:fs';
import { ArgusError } from '@argus/protocol';

/** Where Chrome/Chromium usually lives; the real Debian binary first (the wrapper adds flags). */
export const CHROME_CANDIDATES = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
] as const;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds a Chrome binary: `CHROME_PATH` first, then the usual install paths. */
export function findChrome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CHROME_PATH?.trim();
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    throw new ArgusError('browser_not_found', `CHROME_PATH is set to ${fromEnv}, which is not an executable file. Fix the path or unset CHROME_PATH.`);
  }
  const found = CHROME_CANDIDATES.find(isExecutable);
  if (found) return found;
  throw new ArgusError(
    'browser_not_found',
    `No Chrome or Chromium found (looked in ${CHROME_CANDIDATES.join(', ')}). Install one (Debian/Ubuntu: apt-get install -y chromium) or set CHROME_PATH.`,
  );
}
