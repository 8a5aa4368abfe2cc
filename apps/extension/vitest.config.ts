import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // one real Chromium per file; files run one after another to keep the machine calm
    fileParallelism: false,
    globalSetup: ['@argus/test-kit/global-setup'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
