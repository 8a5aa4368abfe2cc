import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';

// One bundled file with everything but the daemon (a separate process) inlined: lean start-up.
export default defineConfig({
  entry: { argus: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  bundle: true,
  noExternal: [/.*/],
  external: ['@argus/daemon'],
  splitting: true,
  sourcemap: false,
  clean: true,
  minify: false,
  banner: { js: '#!/usr/bin/env node' },
  async onSuccess() {
    cpSync('static', 'dist', { recursive: true });
  },
});
