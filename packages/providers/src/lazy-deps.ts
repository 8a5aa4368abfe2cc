import { createRequire } from 'node:module';
import type * as Linkedom from 'linkedom';
import type * as ReadabilityModule from '@mozilla/readability';
import type TurndownService from 'turndown';
import type * as TurndownGfm from 'turndown-plugin-gfm';
import type * as FastXmlParser from 'fast-xml-parser';
import type * as Undici from 'undici';
import type robotsParser from 'robots-parser';

const require = createRequire(import.meta.url);

/** A dependency loaded on its first use, synchronously (each ships CommonJS), and kept. */
function lazy<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}

/*
 * The parsers and the HTTP client of the web providers load on first use, not with the daemon: they
 * were over a third of the daemon process's start-up (CPU profile of a cold `argus goto`), paid by
 * every browser command's daemon though only fetch/crawl/search/research use them (issue 16).
 */
export const linkedom = lazy<typeof Linkedom>('linkedom');
export const readability = lazy<typeof ReadabilityModule>('@mozilla/readability');
export const turndown = lazy<typeof TurndownService>('turndown');
export const turndownGfm = lazy<typeof TurndownGfm>('turndown-plugin-gfm');
export const fastXmlParser = lazy<typeof FastXmlParser>('fast-xml-parser');
export const undici = lazy<typeof Undici>('undici');
export const robots = lazy<typeof robotsParser>('robots-parser');
