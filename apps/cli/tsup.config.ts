import { cpSync } from 'node:fs';
import { codeCacheBundle, criWithoutLocalProtocol, zodEnglishOnly } from '@argus/bundle-plugins';
import { defineConfig } from 'tsup';

export default defineConfig([
  // One CommonJS file with everything but the daemon (a separate process) and the MCP server (`argus
  // mcp`, required lazily from @argus/plugin; Node 20.19+ requires ES modules) inlined: lean
  // start-up, run by the entry below from V8's code cache (codeCacheBundle).
  {
    entry: { argus: 'src/entry.ts' },
    // (import.meta.url is the bundle's: demo.html and package.json are found from there)
    ...codeCacheBundle,
    platform: 'node',
    target: 'node20',
    bundle: true,
    // Everything is inlined except @argus/plugin (noExternal wins over external in tsup, so exclude it here).
    noExternal: [/^(?!@argus\/plugin(?:\/|$))/],
    external: ['@argus/plugin'],
    sourcemap: false,
    // the entry (below) is built into the same directory at the same time
    clean: ['!argus.js', '!argus-boot.cjs'],
    // whitespace and syntax only (names stay, for stack traces), and what the bundle leaves out: every
    // command starts faster (`argus status`, no daemon, 15 interleaved pairs: 310 -> 280 ms wall,
    // 350 -> 330 ms of CPU here)
    minifyWhitespace: true,
    minifySyntax: true,
    esbuildPlugins: [criWithoutLocalProtocol, zodEnglishOnly],
    async onSuccess() {
      cpSync('static', 'dist', { recursive: true });
    },
  },
  // The process's first code: starts the daemon and its Chromium early, then runs dist/argus.cjs with
  // the code cache (boot.ts); CommonJS, so that each module loads only when reached.
  {
    entry: { 'argus-boot': 'src/boot.ts' },
    ...codeCacheBundle,
    platform: 'node',
    target: 'node20',
    bundle: true,
    noExternal: [/./],
    sourcemap: false,
    clean: false,
    minifyWhitespace: true,
    minifySyntax: true,
  },
  // The bin's file (an ES module, as the package's type makes every .js): requires argus-boot.cjs.
  {
    entry: { argus: 'src/launcher.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    bundle: true,
    splitting: false,
    sourcemap: false,
    clean: false,
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
