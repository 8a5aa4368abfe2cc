import { fileURLToPath } from 'node:url';
import { runEntryWithCodeCache } from '@argus/security/code-cache';

/**
 * The daemon process's entry: runs the daemon's CommonJS bundle (`daemon.cjs`, built from
 * `daemon-process.ts`) with V8's code cache (issue 16: compiling the bundle was a fifth of the
 * daemon's CPU on a cold start, while Chromium starts on the same cores). With no usable cache yet,
 * the bytecode is saved once the start-up work is done: 3 s in (a cold `argus goto` has navigated by
 * then, so its code is in it), or at exit when that comes first.
 */
runEntryWithCodeCache(fileURLToPath(new URL('./daemon.cjs', import.meta.url)), 3_000);
