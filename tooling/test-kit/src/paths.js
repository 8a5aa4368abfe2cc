import { fileURLToPath } from 'node:url';

/** Root of the `@argus/test-kit` package. */
export const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** Hand-written fixture pages, served at `/` by the fixture server. */
export const pagesDir = fileURLToPath(new URL('../pages/', import.meta.url));

/** Vendored data fixtures (see fixtures/README.md). */
export const fixturesDir = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Real saved pages, one folder each, served at `/real/<name>/`. */
export const realPagesDir = fileURLToPath(new URL('../fixtures/real-pages/', import.meta.url));
