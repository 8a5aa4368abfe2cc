import { fileURLToPath } from 'node:url';
import { runEntryWithCodeCache } from '@argus/security/code-cache';

/**
 * The `argus` process's entry: runs the CLI's CommonJS bundle (`argus.cjs`, built from `entry.ts`)
 * with V8's code cache (issue 16), saved at exit when there was no usable one.
 */
runEntryWithCodeCache(fileURLToPath(new URL('./argus.cjs', import.meta.url)));
