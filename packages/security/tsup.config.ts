import { defineConfig } from 'tsup';

export default defineConfig({
  // `paths` alone: the daemon process finds its workspace with it before loading the rest
  entry: ['src/index.ts', 'src/paths.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
