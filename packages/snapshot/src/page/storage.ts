import { z } from 'zod';
import { pageFunction } from './page-function.js';

const StorageRead = z.object({
  origin: z.string(),
  local: z.record(z.string(), z.string()).optional(),
  session: z.record(z.string(), z.string()).optional(),
  truncated: z.boolean().optional(),
  /** the storage cannot be read here (an opaque origin, a sandboxed frame) */
  error: z.string().optional(),
});

/** `inspect.storage`: localStorage and sessionStorage of the document's origin (or one key), values cut at maxChars. */
export const STORAGE_READ = pageFunction(
  'storageRead',
  StorageRead,
  function (this: unknown, key: string, maxChars: number) {
    let truncated = false;
    const dump = (storage: Storage) => {
      const out: Record<string, string> = {};
      const keys = key ? [key] : Array.from({ length: storage.length }, (_, i) => storage.key(i));
      for (const k of keys) {
        if (k === null) continue;
        const value = storage.getItem(k);
        if (value === null) continue;
        if (value.length > maxChars) truncated = true;
        out[k] = value.length > maxChars ? value.slice(0, maxChars) : value;
      }
      return out;
    };
    try {
      return { origin: location.origin, local: dump(localStorage), session: dump(sessionStorage), truncated };
    } catch (error) {
      return { origin: location.origin, error: String((error as Error | null)?.message || error) };
    }
  },
);

/** `inspect.storage --set`: writes one key; `quota` when the origin's storage is full. */
export const STORAGE_WRITE = pageFunction(
  'storageWrite',
  z.object({ origin: z.string(), error: z.string().optional(), quota: z.boolean().optional() }),
  function (this: unknown, area: 'local' | 'session', key: string, value: string) {
    try {
      (area === 'session' ? sessionStorage : localStorage).setItem(key, value);
      return { origin: location.origin };
    } catch (error) {
      return {
        origin: location.origin,
        error: String((error as Error | null)?.message || error),
        quota: !!error && (error as Error).name === 'QuotaExceededError',
      };
    }
  },
);

const OriginStorage = z.object({ origin: z.string(), items: z.record(z.string(), z.string()) }).nullable();

/** `state save`: the localStorage of the top document's http(s) origin; null for any other origin. */
export const ORIGIN_STORAGE = pageFunction('originStorage', OriginStorage, function (this: unknown) {
  try {
    const origin = location.origin;
    if (!origin || origin === 'null' || !/^https?:/.test(origin)) return null;
    const items: Record<string, string> = {};
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key !== null) items[key] = localStorage.getItem(key) ?? '';
    }
    return { origin, items };
  } catch {
    return null;
  }
});

/** `state load`: writes saved localStorage items into the document's origin; returns how many. */
export const WRITE_LOCAL_STORAGE = pageFunction(
  'writeLocalStorage',
  z.number(),
  function (this: unknown, items: Record<string, string>) {
    for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
    return Object.keys(items).length;
  },
);
