import { fileURLToPath } from 'node:url';
import { runEntryWithCodeCache } from '@argus/security/code-cache';

/**
 * The stdio MCP server's entry (`bin/argus-mcp.js` runs it): runs its CommonJS bundle
 * (`argus-mcp.cjs`, built from `mcp-process.ts`) with V8's code cache (issue 16). With no usable
 * cache yet, the bytecode is saved 3 s in (an agent's first calls, and the hosted daemon's start,
 * are in it by then) or at exit.
 */
runEntryWithCodeCache(fileURLToPath(new URL('./argus-mcp.cjs', import.meta.url)), 3_000);
