/**
 * `argus install-browser`: finds an existing Chrome/Chromium, else installs one (apt as root, else
 * Chrome for Testing). Progress goes to stderr; the one result line to stdout.
 */
export async function runInstallBrowser(out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const { installBrowser } = await import('@argus/daemon/browser-setup');
  const result = await installBrowser({ log: err });
  out(result.installed ? `installed: ${result.path}` : `found: ${result.path} (${result.source}); nothing to install`);
  return 0;
}

/** The demo's set-up step: installs a browser first when none is found (and no remote Chrome is configured). */
export async function ensureBrowser(err: (line: string) => void): Promise<void> {
  if (process.env.ARGUS_CDP_URL) return;
  const { installBrowser, locateChrome } = await import('@argus/daemon/browser-setup');
  if (locateChrome()) return;
  err('No Chrome or Chromium found: running `argus install-browser` first.');
  const result = await installBrowser({ log: err });
  err(`browser: ${result.path}`);
}
