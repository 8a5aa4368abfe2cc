import { defineConfig } from 'tsup';

export default defineConfig({
  // `launch` alone (no CDP client, no zod): the daemon process starts Chrome with it before loading the rest
  entry: ['src/index.ts', 'src/launch.ts', 'src/launch-handover.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
