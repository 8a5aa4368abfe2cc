import { spawn } from 'node:child_process';
import { ArgusError } from '@argus/protocol';
import { type ChromeCandidate, SYSTEM_CHROME_PATHS, browserCacheDirs, locateChrome } from './find-chrome.js';

export interface InstallBrowserOptions {
  env?: NodeJS.ProcessEnv;
  /** Progress lines (the CLI writes them to stderr). */
  log: (line: string) => void;
  /** Where system browsers are looked for (tests replace it to play a fresh machine). */
  systemPaths?: readonly string[];
  /** Defaults to whether this process runs as root (apt needs it). */
  asRoot?: boolean;
  /** Runs a command with its output shown to the user; resolves to its exit code. Swappable for unit tests. */
  run?: (command: string, args: string[], env: NodeJS.ProcessEnv) => Promise<number>;
  /** Installs Chrome for Testing into `cacheDir`; resolves to the executable. Swappable for unit tests. */
  downloadChrome?: (cacheDir: string, log: (line: string) => void) => Promise<string>;
}

export interface InstallBrowserResult extends ChromeCandidate {
  /** false when an existing browser was found and nothing was installed. */
  installed: boolean;
}

/** Runs a command with stdout and stderr both sent to our stderr, so stdout stays clean for results. */
function runToStderr(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', process.stderr, process.stderr], env });
    child.once('error', () => resolve(127));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** Chrome for Testing (stable) through @puppeteer/browsers, loaded only here: most runs never need it. */
async function downloadChromeForTesting(cacheDir: string, log: (line: string) => void): Promise<string> {
  const browsers = await import('@puppeteer/browsers');
  const platform = browsers.detectBrowserPlatform();
  if (!platform) throw new Error(`Chrome for Testing has no build for ${process.platform}/${process.arch}`);
  const buildId = await browsers.resolveBuildId(
    browsers.Browser.CHROME,
    platform,
    browsers.ChromeReleaseChannel.STABLE,
  );
  log(`downloading Chrome for Testing ${buildId} (${platform}) into ${cacheDir}…`);
  let lastTenth = -1;
  const installed = await browsers.install({
    browser: browsers.Browser.CHROME,
    buildId,
    cacheDir,
    downloadProgressCallback: (done: number, total: number) => {
      const tenth = total > 0 ? Math.floor((done / total) * 10) : 0;
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      log(`  ${tenth * 10}% of ${Math.round(total / 1e6)} MB`);
    },
  });
  return installed.executablePath;
}

const reason = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';

/**
 * `argus install-browser`: uses an existing Chrome when there is one; otherwise installs Debian's
 * `chromium` with apt when running as root on a system that has apt, else Chrome for Testing into
 * Argus's cache (needs internet). Throws `browser_not_found` saying what to do when neither works.
 */
export async function installBrowser(options: InstallBrowserOptions): Promise<InstallBrowserResult> {
  const env = options.env ?? process.env;
  const run = options.run ?? runToStderr;
  const log = options.log;
  const systemPaths = options.systemPaths ?? SYSTEM_CHROME_PATHS;
  const existing = locateChrome(env, systemPaths);
  if (existing) return { ...existing, installed: false };

  const failures: string[] = [];
  const asRoot = options.asRoot ?? process.getuid?.() === 0;
  if (asRoot && (await run('sh', ['-c', 'command -v apt-get >/dev/null'], env)) === 0) {
    log("no Chrome or Chromium found; installing Debian's chromium with apt-get (as root)…");
    // a package recorded as installed whose files are gone needs --reinstall to come back
    const recorded =
      (await run(
        'sh',
        ['-c', 'dpkg-query -W -f=\'${Status}\' chromium 2>/dev/null | grep -q "install ok installed"'],
        env,
      )) === 0;
    const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
    const updated = await run('apt-get', ['update'], aptEnv);
    const code =
      updated === 0
        ? await run(
            'apt-get',
            ['install', '-y', '--no-install-recommends', ...(recorded ? ['--reinstall'] : []), 'chromium'],
            aptEnv,
          )
        : updated;
    const found = locateChrome(env, systemPaths);
    if (code === 0 && found) return { ...found, installed: true };
    failures.push(
      code === 0 ? 'apt-get installed chromium, but no browser binary appeared' : `apt-get failed (exit ${code})`,
    );
  } else if (!asRoot) {
    failures.push('apt-get needs root (not tried)');
  } else {
    failures.push('no apt-get on this system');
  }

  const cacheDir = browserCacheDirs(env).argus;
  try {
    log('installing Chrome for Testing (needs internet)…');
    const path = await (options.downloadChrome ?? downloadChromeForTesting)(cacheDir, log);
    return { path, source: 'argus cache', installed: true };
  } catch (error) {
    failures.push(`Chrome for Testing download failed: ${reason(error)}`);
  }
  throw new ArgusError(
    'browser_not_found',
    `Could not install a browser (${failures.join('; ')}). Install Chrome or Chromium yourself ` +
      '(Debian/Ubuntu: `sudo apt-get install -y chromium`; elsewhere: https://www.google.com/chrome/) and run again, ' +
      'or set CHROME_PATH to its binary.',
  );
}
