import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts', 'src/browser-setup.ts', 'src/early-launch.ts'],
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/browser-setup.ts', 'src/early-launch.ts'] },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // an optional dependency (the journal's native driver): tsup leaves only dependencies and peers
  // external by default, and a bundled copy cannot load its binding
  external: ['better-sqlite3'],
});
