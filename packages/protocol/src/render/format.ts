/** Small formatting helpers shared by the renderers. */

export const str = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** One line of page text, cut to a readable width. */
export const cut = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export const ms = (value: number | null | undefined): string =>
  value === null || value === undefined ? '-' : `${Math.round(value)} ms`;

export function bytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} kB`;
  return `${(value / 1024 / 1024).toFixed(1)} MB`;
}

/** Seconds for durations people read (`1.3 s`), milliseconds below one second. */
export function duration(valueMs: number): string {
  return valueMs < 1000 ? `${Math.round(valueMs)} ms` : `${(valueMs / 1000).toFixed(1)} s`;
}

/** `Title — url` (the title left out when the page has none). */
export const titled = (title: string | null | undefined, url: string): string => (title ? `${title} — ${url}` : url);

/** Caller-chosen text (node ids, origins): clipped and without control characters. */
export function clip(text: string, max: number): string {
  const clean = [...text].map((char) => (/[\p{Cc}\p{Cf}]/u.test(char) ? '?' : char)).join('');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export const lines = (...parts: Array<string | false | null | undefined>): string =>
  parts.filter((part): part is string => typeof part === 'string').join('\n');
