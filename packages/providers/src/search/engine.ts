import type { HttpClient } from '../http-client.js';
import { providerError } from '../provider-error.js';

export const ENGINE_NAMES = ['searxng', 'brave', 'duckduckgo'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** One hit, the same shape whichever engine found it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  engine: EngineName;
  /** 1-based position in this engine's answer. */
  rank: number;
  /** When the engine says the page was published (ISO 8601 or the engine's own words), else null. */
  published: string | null;
}

/** How far back results may go, as the engines understand it: a day, a week, a month, a year. */
export type TimeRange = 'day' | 'week' | 'month' | 'year';

export interface EngineQuery {
  query: string;
  limit: number;
  timeRange?: TimeRange;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface SearchEngine {
  readonly name: EngineName;
  search(query: EngineQuery): Promise<SearchResult[]>;
}

/** The engines' settings: `providers.search.*` in config, or the env variables named there. */
export interface SearchSettings {
  engine?: EngineName | undefined;
  searxngUrl?: string | undefined;
  braveApiKey?: string | undefined;
  braveUrl?: string | undefined;
  duckduckgoUrl?: string | undefined;
}

/** What an engine needs to make its call: the guarded client, and its configured endpoint. */
export interface EngineDeps {
  http: HttpClient;
  settings: SearchSettings;
}

/**
 * `--since` as a duration (`12h`, `7d`, `2w`, `6m`, `1y`) in milliseconds, or an invalid_input error
 * that shows the form.
 */
export function parseSince(since: string): number {
  const match = /^(\d{1,4})\s*([hdwmy])$/i.exec(since.trim());
  if (!match) {
    throw providerError(
      'invalid_input',
      `--since ${since} is not a duration. Use a number and a unit: 12h, 7d, 2w, 6m, 1y.`,
      {
        details: { since },
      },
    );
  }
  const unit = { h: 3_600_000, d: 86_400_000, w: 604_800_000, m: 2_592_000_000, y: 31_536_000_000 };
  return Number(match[1]) * unit[match[2]!.toLowerCase() as keyof typeof unit];
}

/** The narrowest engine time range that still holds the whole duration. */
export function timeRangeFor(ms: number): TimeRange {
  if (ms <= 86_400_000) return 'day';
  if (ms <= 604_800_000) return 'week';
  if (ms <= 2_678_400_000) return 'month';
  return 'year';
}

/** Text of an engine's snippet: tags gone, entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return safeCodePoint(parseInt(name.slice(2), 16), whole);
    if (name.startsWith('#')) return safeCodePoint(Number(name.slice(1)), whole);
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/** A configured base URL, checked once: an http(s) URL without a trailing slash. */
export function baseUrl(value: string, key: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw providerError(
      'invalid_input',
      `${key} is "${value}", which is not a URL. Set it to the engine's http(s) address.`,
      {
        details: { key },
      },
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw providerError('invalid_input', `${key} must be an http(s) URL, not ${parsed.protocol}.`, {
      details: { key },
    });
  return parsed.href.replace(/\/+$/, '');
}
