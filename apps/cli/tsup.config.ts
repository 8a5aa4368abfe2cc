import { cpSync } from 'node:fs';
import { criWithoutLocalProtocol, zodEnglishOnly } from '@argus/bundle-plugins';
import { defineConfig } from 'tsup';

// One bundled file with everything but the daemon (a separate process) and the MCP server
// (`argus mcp`, loaded lazily from @argus/plugin) inlined: lean start-up.
export default defineConfig({
  entry: { argus: 'src/entry.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  bundle: true,
  // Everything is inlined except @argus/plugin (noExternal wins over external in tsup, so exclude it here).
  noExternal: [/^(?!@argus\/plugin(?:\/|$))/],
  external: ['@argus/daemon', '@argus/plugin'],
  splitting: true,
  sourcemap: false,
  clean: true,
  // whitespace and syntax only (names stay, for stack traces), and what the bundle leaves out: every
  // command starts faster (`argus status`, no daemon, 15 interleaved pairs: 310 -> 280 ms wall,
  // 350 -> 330 ms of CPU here)
  minifyWhitespace: true,
  minifySyntax: true,
  esbuildPlugins: [criWithoutLocalProtocol, zodEnglishOnly],
  // `require` for bundled CommonJS (ws) that loads Node built-ins; esbuild's shim uses it when defined
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __argusRequire } from 'node:module';\nconst require = __argusRequire(import.meta.url);",
  },
  async onSuccess() {
    cpSync('static', 'dist', { recursive: true });
  },
});
