/**
 * @argus/test-kit: shared helpers for Argus tests. Plain ESM with JSDoc; types in ../index.d.ts.
 */
export { startFixtureServer } from './server.js';
export { BASIC_AUTH, MAX_BIG_BYTES, MAX_SLOW_MS } from './dynamic-routes.js';
export { realPages } from './real-pages.js';
export { fixturesDir, pagesDir, realPagesDir } from './paths.js';
export {
  PROFILE_PREFIX,
  parentOf,
  procStatFields,
  listArgusChromeProcesses,
  listArgusChromes,
  liveProcesses,
  processGroupMembers,
} from './chrome.js';
export { chromeLeakGuard } from './leak-guard.js';
export { runProcess } from './run-process.js';
export { firstNonAscii } from './bundle-text.js';
export { FAKE_BRAVE_KEY, fakeSearchEngines } from './fake-search.js';
export {
  EXTENSION_DIR,
  evaluateInWorker,
  extensionFlags,
  findServiceWorker,
  pairExtension,
  waitUntil,
} from './extension.js';
export { SOAK_MIX, SOAK_PAGE, runSoak, soakMismatches } from './soak.js';
export { PickerDriver, clickAt } from './picker-driver.js';
