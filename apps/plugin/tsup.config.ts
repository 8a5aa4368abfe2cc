import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { criWithoutLocalProtocol, mcpServerWithoutDefaultAjv, zodEnglishOnly } from '@argus/bundle-plugins';
import { defineConfig } from 'tsup';
import daemonExternals from './daemon-externals.json' with { type: 'json' };

/**
 * Packages the bundled daemon loads by name at run time, not by import (`daemon-externals.json`, which
 * the release's pack reads too): the web providers' parsers and HTTP client and the canvas colour
 * library (required on first use, `createRequire` of the bundle's own URL: they resolve from this
 * package, which therefore depends on them), the browser installer, the journal's native driver (a
 * bundled copy cannot load its binding), and ws's optional native speed-ups (absent unless installed).
 */
export const DAEMON_RUNTIME_EXTERNALS: readonly string[] = daemonExternals;

const escape = (name: string): string => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export default defineConfig([
  // Workspace packages and the SDKs stay external (regular dependencies).
  {
    entry: {
      index: 'src/index.ts',
      server: 'src/server.ts',
      opencode: 'src/opencode.ts',
      http: 'src/http-endpoint.ts',
      'daemon-entry': 'src/daemon-entry.ts',
    },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: {
      entry: {
        index: 'src/index.ts',
        server: 'src/server.ts',
        opencode: 'src/opencode.ts',
        http: 'src/http-endpoint.ts',
        'daemon-entry': 'src/daemon-entry.ts',
      },
    },
    splitting: true,
    sourcemap: true,
    clean: ['!daemon/**'],
  },
  // The two processes, each a bundle with its dependencies inlined (chunks they share written once):
  // the daemon (plus MCP on its tunnel listener; clients start it) and the stdio MCP server
  // (argus-mcp, started by agents; bin/argus-mcp.js runs it). Node's ESM loader spent about half of
  // the daemon's start-up, and a third of the MCP server's before its first answer, resolving
  // packages and pre-parsing CommonJS exports, file by file (CPU profiles, issue 16). Lazily loaded
  // parts (the MCP endpoint, the providers' parsers) stay in their own chunks or packages, loaded on
  // first use. The MCP server finds the daemon's entry beside it (daemonEntry).
  {
    entry: {
      'daemon-main': 'src/daemon-main.ts',
      'argus-mcp': 'src/argus-mcp.ts',
      'tool-specs-build': 'src/tool-specs-build.ts',
    },
    outDir: 'dist/daemon',
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    bundle: true,
    // everything is inlined but those (noExternal wins over external in tsup: exclude them here)
    noExternal: [new RegExp(`^(?!(?:${DAEMON_RUNTIME_EXTERNALS.map(escape).join('|')})(?:/|$))`)],
    external: [...DAEMON_RUNTIME_EXTERNALS],
    splitting: true,
    sourcemap: true,
    // the daemon's CommonJS bundle (below) is built into the same directory at the same time
    clean: ['!daemon.cjs*', '!metafile-cjs.json'],
    esbuildPlugins: [criWithoutLocalProtocol, zodEnglishOnly, mcpServerWithoutDefaultAjv],
    // what the bundle still imports at run time, checked by test/daemon-bundle.test.ts
    metafile: true,
    // whitespace and syntax only (names stay, for stack traces): ~15% less to compile at start-up
    minifyWhitespace: true,
    minifySyntax: true,
    // `require` for bundled CommonJS (ws, pino, ...) that loads Node built-ins
    banner: {
      js: "import { createRequire as __argusRequire } from 'node:module';\nconst require = __argusRequire(import.meta.url);",
    },
    // the MCP server's tool specs, computed once here instead of at each start (BUILT_TOOL_SPECS)
    async onSuccess() {
      const built = (await import(pathToFileURL(resolve('dist/daemon/tool-specs-build.js')).href)) as {
        BUILT_TOOL_SPECS: string;
        writeBuiltToolSpecs(file: string): void;
      };
      built.writeBuiltToolSpecs(resolve('dist/daemon', built.BUILT_TOOL_SPECS));
    },
  },
  // The daemon itself, one CommonJS file: `daemon-main.js` (above) runs it through vm.Script with V8's
  // code cache (@argus/security/code-cache), which Node 20 offers for no ES module. Its lazily
  // imported parts (the canvas, chrome-remote-interface, the MCP endpoint) are in the same file but
  // evaluated only at their first import, as before.
  {
    entry: { daemon: 'src/daemon-process.ts' },
    outDir: 'dist/daemon',
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    platform: 'node',
    target: 'node20',
    bundle: true,
    noExternal: [new RegExp(`^(?!(?:${DAEMON_RUNTIME_EXTERNALS.map(escape).join('|')})(?:/|$))`)],
    external: [...DAEMON_RUNTIME_EXTERNALS],
    splitting: false,
    // import.meta.url of the sources (the lazily required packages resolve from the bundle's place)
    shims: true,
    sourcemap: true,
    clean: false,
    esbuildPlugins: [criWithoutLocalProtocol, zodEnglishOnly, mcpServerWithoutDefaultAjv],
    // `import()` of a package left outside becomes a `require` (Node 20.19+ requires ES modules too):
    // functions restored from a code cache cannot `import()` (runWithCodeCache)
    esbuildOptions(options) {
      options.supported = { ...options.supported, 'dynamic-import': false };
    },
    metafile: true,
    minifyWhitespace: true,
    minifySyntax: true,
  },
]);
