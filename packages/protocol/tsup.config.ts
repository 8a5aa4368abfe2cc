import { defineConfig } from 'tsup';

export default defineConfig({
  entry: [
    'src/index.ts',
    'src/router.ts',
    'src/config.ts',
    'src/config-files.ts',
    'src/errors.ts',
    'src/daemon-state.ts',
    'src/make-dirs.ts',
    'src/snapshot-refs.ts',
    'src/tab-ids.ts',
    'src/lease-ids.ts',
    'src/url-display.ts',
    'src/render/index.ts',
  ],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
