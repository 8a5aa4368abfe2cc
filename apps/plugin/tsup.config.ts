import { defineConfig } from 'tsup';

// Workspace packages and the SDKs stay external (regular dependencies). `daemon-main` is the daemon
// process with the MCP endpoint on its tunnel listener (clients start it; it imports @argus/daemon).
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    server: 'src/server.ts',
    opencode: 'src/opencode.ts',
    'argus-mcp': 'src/argus-mcp.ts',
    http: 'src/http-endpoint.ts',
    'daemon-main': 'src/daemon-main.ts',
    'daemon-entry': 'src/daemon-entry.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: {
    entry: {
      index: 'src/index.ts',
      server: 'src/server.ts',
      opencode: 'src/opencode.ts',
      http: 'src/http-endpoint.ts',
      'daemon-entry': 'src/daemon-entry.ts',
    },
  },
  splitting: true,
  sourcemap: true,
  clean: true,
});
