import { defineConfig } from 'tsup';

export default defineConfig({
  // `wire` is a separate, browser-safe entry: the extension bundles it without any node code.
  entry: { index: 'src/index.ts', 'wire/index': 'src/wire/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
