// The extension's test helpers, published as `@argus/extension/testing` so other apps' tests (the
// daemon's extension-mode tests) reuse them through an entry point instead of a path into this folder.
export { CdpClient } from './cdp-client.js';
export { launchChromium } from './chromium.js';
export { EXTENSION_DIR, connectWithRetry, evaluateInWorker, findServiceWorker, waitUntil } from './harness.js';
