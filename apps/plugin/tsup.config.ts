import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  codeCacheBundle,
  criWithoutLocalProtocol,
  mcpServerWithoutDefaultAjv,
  zodEnglishOnly,
} from '@argus/bundle-plugins';
import { type Options, defineConfig } from 'tsup';
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

/** What the process bundles and their entries share. */
const processBundle = {
  outDir: 'dist/daemon',
  platform: 'node',
  target: 'node20',
  bundle: true,
  // everything is inlined but those (noExternal wins over external in tsup: exclude them here)
  noExternal: [new RegExp(`^(?!(?:${DAEMON_RUNTIME_EXTERNALS.map(escape).join('|')})(?:/|$))`)],
  external: [...DAEMON_RUNTIME_EXTERNALS],
  sourcemap: true,
  esbuildPlugins: [criWithoutLocalProtocol, zodEnglishOnly, mcpServerWithoutDefaultAjv],
  // what the bundles still import at run time, checked by test/daemon-bundle.test.ts
  metafile: true,
  // whitespace and syntax only (names stay, for stack traces): ~15% less to compile at start-up
  minifyWhitespace: true,
  minifySyntax: true,
} satisfies Options;

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
  // The processes' entries, small ES modules: `daemon-main.js` (the daemon; clients start it) and
  // `argus-mcp.js` (the stdio MCP server, started by agents; bin/argus-mcp.js runs it), each running
  // its CommonJS bundle (below) with the code cache; and the build step that writes the tool specs.
  {
    ...processBundle,
    entry: {
      'daemon-main': 'src/daemon-main.ts',
      'argus-mcp': 'src/argus-mcp.ts',
      'tool-specs-build': 'src/tool-specs-build.ts',
    },
    format: ['esm'],
    splitting: true,
    // the CommonJS bundles (below) are built into the same directory at the same time
    clean: ['!*.cjs*', '!metafile-cjs.json'],
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
  // The two processes, each one CommonJS file with its dependencies inlined: the daemon (plus MCP on
  // its tunnel listener) and the stdio MCP server. Node's ESM loader spent about half of the daemon's
  // start-up, and a third of the MCP server's before its first answer, resolving packages and
  // pre-parsing CommonJS exports, file by file (CPU profiles, issue 16); CommonJS, to start from the
  // code cache (codeCacheBundle). Lazily imported parts (the canvas, chrome-remote-interface, the MCP
  // endpoint, Ajv) are in the same file but evaluated only at their first import, as before; the
  // providers' parsers load by name from this package. The MCP server finds the daemon's entry
  // beside it (daemonEntry).
  {
    ...processBundle,
    entry: { daemon: 'src/daemon-process.ts', 'argus-mcp': 'src/mcp-process.ts' },
    ...codeCacheBundle,
    clean: false,
  },
]);
