/**
 * Finding and installing a browser, for `argus install-browser` and the demo's set-up path. A
 * separate entry of the daemon package so the CLI (an adapter that never imports the driver
 * itself) loads it lazily, and only for those two verbs.
 */
export { installBrowser, locateChrome, noBrowserMessage, type InstallBrowserResult } from '@argus/cdp';
