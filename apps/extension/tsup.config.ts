import { defineConfig } from 'tsup';

// One self-contained file per extension context; static files (manifest, html) are copied as-is.
export default defineConfig({
  entry: {
    background: 'src/background/main.ts',
    offscreen: 'src/offscreen/main.ts',
    popup: 'src/popup/main.ts',
    sidepanel: 'src/sidepanel/main.ts',
  },
  format: ['esm'],
  platform: 'browser',
  target: 'chrome120',
  outDir: 'dist',
  publicDir: 'static',
  splitting: false,
  sourcemap: true,
  clean: true,
  dts: false,
  // zod's full build is large; minified bundles load faster in the worker and offscreen page
  minify: true,
  noExternal: [/.*/],
});
