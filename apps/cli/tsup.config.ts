import { cpSync } from 'node:fs';
import { criWithoutLocalProtocol, zodEnglishOnly } from '@argus/bundle-plugins';
import { defineConfig } from 'tsup';

export default defineConfig([
  // One CommonJS file with everything but the daemon (a separate process) and the MCP server (`argus
  // mcp`, required lazily from @argus/plugin) inlined: lean start-up, and CommonJS so that the entry
  // below can run it from V8's code cache (Node 20 has none for ES modules).
  {
    entry: { argus: 'src/entry.ts' },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    platform: 'node',
    target: 'node20',
    bundle: true,
    // Everything is inlined except @argus/plugin (noExternal wins over external in tsup, so exclude it here).
    noExternal: [/^(?!@argus\/plugin(?:\/|$))/],
    external: ['@argus/plugin'],
    splitting: false,
    // import.meta.url of the sources (demo.html and package.json are found from the bundle's place)
    shims: true,
    sourcemap: false,
    // the entry (below) is built into the same directory at the same time
    clean: ['!argus.js'],
    // whitespace and syntax only (names stay, for stack traces), and what the bundle leaves out: every
    // command starts faster (`argus status`, no daemon, 15 interleaved pairs: 310 -> 280 ms wall,
    // 350 -> 330 ms of CPU here)
    minifyWhitespace: true,
    minifySyntax: true,
    esbuildPlugins: [criWithoutLocalProtocol, zodEnglishOnly],
    // `import()` becomes `require` (Node 20.19+ requires ES modules too, @argus/plugin's among them):
    // functions restored from a code cache cannot `import()` (@argus/security/code-cache)
    esbuildOptions(options) {
      options.supported = { ...options.supported, 'dynamic-import': false };
      // ASCII only (a one-byte source decodes ~10x faster at each start): see apps/plugin's config
      options.charset = 'ascii';
    },
    async onSuccess() {
      cpSync('static', 'dist', { recursive: true });
    },
  },
  // The process's entry: runs dist/argus.cjs with the code cache.
  {
    entry: { argus: 'src/boot.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    bundle: true,
    noExternal: [/./],
    splitting: false,
    sourcemap: false,
    clean: false,
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
