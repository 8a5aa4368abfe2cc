import { defineConfig } from 'vitest/config';

// Each case runs ESLint with typescript-eslint over the workspace config: the first load alone takes
// seconds on a busy 2-core machine, so the default 5 s per test is too tight.
export default defineConfig({ test: { testTimeout: 60_000 } });
