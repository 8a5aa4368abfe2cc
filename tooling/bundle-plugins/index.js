// esbuild plugins for the bundles of the processes users start (the CLI, the daemon, argus-mcp):
// parts of their dependencies that Argus never uses are left out, so there is less to read and
// compile at each start (issue 16).

/**
 * chrome-remote-interface's 1 MB protocol.json is read only for `local: true`; @argus/cdp passes its
 * own (empty) descriptor, so a bundle carries an empty one instead of parsing 1 MB when it loads.
 * @type {import('./index.d.ts').BundlePlugin}
 */
export const criWithoutLocalProtocol = {
  name: 'cri-without-local-protocol',
  setup(build) {
    build.onLoad({ filter: /chrome-remote-interface[\\/]lib[\\/]protocol\.json$/ }, () => ({
      contents: '{ "domains": [] }',
      loader: 'json',
    }));
  },
};

/**
 * zod's namespace re-exports all of its ~50 message locales (~300 KB of a bundle's zod); Argus only
 * ever uses the default English one, so a bundle carries that alone (`z.locales.en` still works).
 * @type {import('./index.d.ts').BundlePlugin}
 */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";',
      loader: 'js',
    }));
  },
};

/**
 * The MCP SDK's `Server` imports its Ajv validator (Ajv, its formats and a URI parser: ~190 KB of a
 * bundle) only to build it when no `jsonSchemaValidator` is passed; argus-mcp always passes its own,
 * which loads Ajv at the first elicitation (LazyAjv in apps/plugin). For that one importer the
 * import resolves to a stand-in that cannot be constructed, so Ajv is no longer compiled before the
 * server's first answer; the validator module itself, imported by LazyAjv, is untouched.
 * @type {import('./index.d.ts').BundlePlugin}
 */
export const mcpServerWithoutDefaultAjv = {
  name: 'mcp-server-without-default-ajv',
  setup(build) {
    build.onResolve({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, (args) =>
      /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/.test(args.importer)
        ? { path: 'mcp-server-default-ajv', namespace: 'argus-stand-in' }
        : undefined,
    );
    build.onLoad({ filter: /^mcp-server-default-ajv$/, namespace: 'argus-stand-in' }, () => ({
      contents:
        "export class AjvJsonSchemaValidator { constructor() { throw new Error('argus: the MCP server is built with its own jsonSchemaValidator'); } }",
      loader: 'js',
    }));
  },
};

/**
 * The tsup options of a bundle its entry runs from V8's code cache (@argus/security/code-cache): the
 * CLI's, the daemon's and argus-mcp's, in the workspace and in the published package.
 * - One CommonJS file: Node 20 has a code cache for scripts only (its compile cache for ES modules
 *   came in 22). Lazily imported parts stay in the file, evaluated at their first import.
 * - No `import()`: functions restored from a cache lose Node's hook for it ("A dynamic import
 *   callback was not specified"), so each becomes a `require` (Node 20.19+ requires ES modules too).
 * - ASCII only: tsup asks esbuild for UTF-8, and one character outside ASCII makes Node decode the
 *   whole source the slow way at each start (~13 ms for the daemon's, against ~1 ms). esbuild leaves
 *   regular expressions as written: write `\u` escapes there (the bundle tests check).
 * - `import.meta.url` of the sources is the bundle's own (shims).
 * @type {import('./index.d.ts').CodeCacheBundle}
 */
export const codeCacheBundle = {
  format: ['cjs'],
  outExtension: () => ({ js: '.cjs' }),
  splitting: false,
  shims: true,
  esbuildOptions(options) {
    options.supported = { ...options.supported, 'dynamic-import': false };
    options.charset = 'ascii';
  },
};
