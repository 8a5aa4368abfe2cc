import { createRequire } from 'node:module';

/**
 * `argus.js`, the file the `argus` bin runs: an ES module (the package's type), which only requires the
 * CommonJS entry beside it (boot.ts): an ES module's imports all load before its first line runs.
 */
createRequire(import.meta.url)('./argus-boot.cjs');
