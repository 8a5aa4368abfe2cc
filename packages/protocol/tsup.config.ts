import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/router.ts', 'src/errors.ts', 'src/daemon-state.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
