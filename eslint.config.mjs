// ESLint flat config for the whole workspace: TypeScript rules, and the layer rule that keeps the
// dependency direction of docs/ARCHITECTURE.md for src AND tests. Run from the root: `pnpm lint`.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import workspace from './tooling/eslint/workspace-boundaries.mjs';

/**
 * The layers. Each workspace folder may import only the @argus packages listed for it (its own name is
 * always allowed). Apps are the top: they may use any package, but another app only through its
 * published entry (`@argus/daemon`), never by a relative path into its folder. `@argus/test-kit` is a
 * test helper: tests may import it, src may not.
 */
const PACKAGES = ['protocol', 'security', 'cdp', 'snapshot', 'providers', 'canvas', 'relay', 'client'];
const LAYERS = {
  'packages/protocol': [],
  'packages/security': ['protocol'],
  'packages/cdp': ['protocol', 'security'],
  'packages/snapshot': ['protocol', 'security', 'cdp'],
  'packages/providers': ['protocol', 'security'],
  'packages/canvas': ['protocol'],
  'packages/relay': ['protocol', 'security', 'cdp'],
  'packages/client': ['protocol', 'security'],
  // The CLI and the plugin are adapters: they reach the browser through the daemon, never the driver.
  'apps/cli': ['protocol', 'security', 'client', 'providers', 'canvas', 'daemon', 'plugin'],
  'apps/plugin': ['protocol', 'security', 'client', 'providers', 'canvas', 'daemon'],
  'apps/extension': ['protocol', 'security', 'relay'],
  'apps/daemon': [...PACKAGES],
  // The published `argus` package: bundles the apps above and re-exports the client for scripts.
  'apps/release': ['protocol', 'security', 'client', 'cli', 'plugin'],
};
/** Extra packages a folder's tests may import: the extension's tests drive Chromium over CDP themselves.
 * No test imports another app: shared test helpers live in the test kit. */
const TEST_EXTRAS = { 'apps/extension': ['cdp'] };
const APPS = ['daemon', 'cli', 'plugin', 'extension', 'release'];
const ALL = [...PACKAGES, ...APPS];

function layerRule(folder, allowed, { test }) {
  const own = folder.split('/')[1];
  const forbidden = ALL.filter((name) => name !== own && !allowed.includes(name));
  const patterns = [
    {
      group: forbidden.flatMap((name) => [`@argus/${name}`, `@argus/${name}/*`]),
      message: `${folder} may import only ${allowed.length ? allowed.map((n) => `@argus/${n}`).join(', ') : 'no other @argus package'} (layers in docs/ARCHITECTURE.md).`,
    },
  ];
  if (!test) {
    patterns.push({ group: ['@argus/test-kit', '@argus/test-kit/*'], message: 'The test kit is for tests only.' });
  }
  return { 'no-restricted-imports': ['error', { patterns }] };
}

const TEST_GLOBS = ['test/**', '**/*.test.ts', '**/*.test.mts'];

const layerConfigs = Object.entries(LAYERS).flatMap(([folder, allowed]) => [
  {
    name: `layers/${folder}/src`,
    files: [`${folder}/**/*.{ts,tsx,mts,js,mjs}`],
    ignores: TEST_GLOBS.map((glob) => `${folder}/${glob}`),
    rules: layerRule(folder, allowed, { test: false }),
  },
  {
    name: `layers/${folder}/test`,
    files: TEST_GLOBS.map((glob) => `${folder}/${glob}`),
    rules: layerRule(folder, [...allowed, ...(TEST_EXTRAS[folder] ?? [])], { test: true }),
  },
]);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.turbo/**',
      '**/.argus/**',
      '**/coverage/**',
      'tooling/test-kit/fixtures/**',
      'tooling/test-kit/pages/**',
      '**/*.d.ts',
      'apps/cli/src/spec.generated.*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { workspace },
    rules: {
      'workspace/no-cross-package-relative': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-expect-error': 'allow-with-description' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A closure may read a variable that is assigned once, later (the daemon's server in stop()).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Code shipped to pages and to the extension runs in browser globals.
    files: ['apps/extension/**', 'packages/snapshot/src/page-*.ts', 'packages/snapshot/src/page/**', '**/*.browser.ts'],
    languageOptions: { globals: { ...globals.browser, chrome: 'readonly' } },
  },
  {
    // Page functions are called with the element as `this` (Runtime.callFunctionOn); their inner
    // closures need a name for it.
    files: ['packages/snapshot/src/page-*.ts', 'packages/snapshot/src/page/**'],
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
  {
    // Node 20's recursive mkdir spins forever under /proc (ARGUS_STATE_DIR=/proc/x hung the CLI)
    files: ['apps/*/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: TEST_GLOBS.flatMap((glob) => [`apps/*/${glob}`, `packages/*/${glob}`]),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name=/^mkdir(Sync)?$/] Property[key.name='recursive']",
          message: 'Use makeDirs from @argus/protocol/make-dirs: a recursive mkdir never returns under /proc.',
        },
      ],
    },
  },
  ...layerConfigs,
);
