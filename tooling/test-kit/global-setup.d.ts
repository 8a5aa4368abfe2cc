// Types for src/global-setup.js: vitest `globalSetup: ['@argus/test-kit/global-setup']`.

/** Records the Argus Chromes alive before the run. */
export function setup(): void;
/** Fails the run (after killing them) if Chromes started during it are still alive 5 s later. */
export function teardown(): Promise<void>;
