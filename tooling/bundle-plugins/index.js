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
