import { defineConfig } from 'tsup';

// Workspace packages and the SDKs stay external (regular dependencies); the daemon is a separate
// process we only resolve the entry path of.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    server: 'src/server.ts',
    opencode: 'src/opencode.ts',
    'argus-mcp': 'src/argus-mcp.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: { entry: { index: 'src/index.ts', server: 'src/server.ts', opencode: 'src/opencode.ts' } },
  splitting: true,
  sourcemap: true,
  clean: true,
});
