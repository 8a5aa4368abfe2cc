import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.js'],
    testTimeout: 20_000,
    // Dogfood the leak guard other packages use as '@argus/test-kit/global-setup'.
    globalSetup: ['./src/global-setup.js'],
  },
});
