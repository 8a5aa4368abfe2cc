import { defineConfig } from 'vitest/config';

// One test file that packs, installs and drives the package: it runs npm and Chromium, hence the long
// timeouts (the install is the slow part; it uses the npm cache when it can).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    globalSetup: ['@argus/test-kit/global-setup'],
  },
});
