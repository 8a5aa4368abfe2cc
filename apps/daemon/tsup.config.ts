import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts', 'src/browser-setup.ts'],
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/browser-setup.ts'] },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
