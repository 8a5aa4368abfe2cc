import { fileURLToPath } from 'node:url';
import { startEarly } from './early-start.js';
import type { run } from './entry.js';

/**
 * The `argus` process's first code (`argus-boot.cjs`, required by the ES module `argus.js`:
 * launcher.ts): starts what the command needs early (the daemon and its Chromium: early-start.ts),
 * then runs the CLI's CommonJS bundle (`argus.cjs`, built from `entry.ts`) with V8's code cache
 * (issue 16), saved at exit when there was no usable one, and hands it what it started. CommonJS, and
 * the code cache's module loaded only after the start: what this file requires loads when it is
 * reached, so Chromium is spawned before `node:crypto` and `node:vm` load (ES modules load every
 * import first).
 */
const early = startEarly(process.argv.slice(2));
void import('@argus/security/code-cache').then(({ runEntryWithCodeCache }) => {
  const bundle = runEntryWithCodeCache(fileURLToPath(new URL('./argus.cjs', import.meta.url)));
  (bundle.exports as { run: typeof run }).run(early);
});
