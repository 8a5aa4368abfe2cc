import { defineConfig } from 'tsup';

export default defineConfig({
  // `paths` alone: the daemon process finds its workspace with it before loading the rest;
  // `code-cache` alone: the daemon's boot runs its bundle with it
  entry: ['src/index.ts', 'src/paths.ts', 'src/code-cache.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
