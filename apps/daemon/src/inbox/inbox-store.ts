import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import {
  Annotation,
  type AnnotationData,
  ArgusError,
  INBOX_CONSUME_MAX_BYTES,
  INBOX_CONSUME_MAX_ITEMS,
  type InboxItemData,
} from '@argus/protocol';
import { z } from 'zod';
import { capAnnotation } from './annotation-cap.js';

export interface InboxOptions {
  /** Milliseconds since the epoch; injectable so tests can move time. */
  now?: () => number;
  maxItems?: number;
  ttlMs?: number;
  dedupeMs?: number;
}

export interface InboxChange {
  unread: number;
  added: number;
  newest: string | null;
}

/** What a new annotation is before the inbox gives it an id and a time. */
export type NewAnnotation = Omit<AnnotationData, 'id' | 'createdAt' | 'cut'>;

const Stored = z.object({ annotation: Annotation, read: z.boolean(), hash: z.string(), at: z.number() });
type Stored = z.infer<typeof Stored>;
const InboxFile = z.object({ version: z.literal(1), items: z.array(z.unknown()) });

const DAY_MS = 86_400_000;

/**
 * The workspace's agent inbox (`<state dir>/inbox.json`): annotations the person sent, for agents
 * to consume. Bounded (200 items, the oldest go first; 7 days), identical payloads within 60 s are
 * stored once, and every change is written atomically (temp file + rename) with mode 0600. The
 * file is read once; the daemon is its only writer.
 */
export class InboxStore {
  private items: Stored[] | undefined;
  private readonly listeners = new Set<(change: InboxChange) => void>();
  private readonly now: () => number;
  private readonly maxItems: number;
  private readonly ttlMs: number;
  private readonly dedupeMs: number;

  constructor(
    readonly file: string,
    options: InboxOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxItems = options.maxItems ?? 200;
    this.ttlMs = options.ttlMs ?? 7 * DAY_MS;
    this.dedupeMs = options.dedupeMs ?? 60_000;
  }

  /** Stores an annotation (capped to 64 KiB); an identical one from the last 60 s is returned instead. */
  add(fresh: NewAnnotation): { item: InboxItemData; duplicate: boolean } {
    const items = this.live();
    const now = this.now();
    const hash = createHash('sha256')
      .update(JSON.stringify([fresh.source, fresh.url, fresh.title, fresh.elements]))
      .digest('hex');
    const same = items.find((item) => item.hash === hash && now - item.at < this.dedupeMs);
    if (same) return { item: view(same), duplicate: true };
    const annotation = capAnnotation({
      ...fresh,
      id: randomBytes(4).toString('hex'),
      createdAt: new Date(now).toISOString(),
      cut: null,
    });
    const stored: Stored = { annotation, read: false, hash, at: now };
    items.push(stored);
    if (items.length > this.maxItems) items.splice(0, items.length - this.maxItems);
    this.save();
    this.emit(1);
    return { item: view(stored), duplicate: false };
  }

  list(options: { unread?: boolean } = {}): InboxItemData[] {
    return this.live()
      .filter((item) => !options.unread || !item.read)
      .map(view);
  }

  /** One item by id or unique id prefix. */
  get(id: string): InboxItemData {
    return view(this.find(id));
  }

  /**
   * The oldest unread items, marked read: at most `max` (20) and 256 KiB of JSON together (the first
   * is always given: one item is at most 64 KiB). The rest stays unread.
   */
  consume(
    max = INBOX_CONSUME_MAX_ITEMS,
    maxBytes = INBOX_CONSUME_MAX_BYTES,
  ): { items: InboxItemData[]; remaining: number } {
    const unread = this.live().filter((item) => !item.read);
    const taken: Stored[] = [];
    let bytes = 0;
    for (const item of unread) {
      if (taken.length >= Math.min(max, INBOX_CONSUME_MAX_ITEMS)) break;
      const size = Buffer.byteLength(JSON.stringify(item.annotation), 'utf8');
      if (taken.length > 0 && bytes + size > maxBytes) break;
      taken.push(item);
      bytes += size;
    }
    for (const item of taken) item.read = true;
    if (taken.length) {
      this.save();
      this.emit(0);
    }
    return { items: taken.map(view), remaining: unread.length - taken.length };
  }

  clear(): number {
    const count = this.live().length;
    this.items = [];
    this.save();
    this.emit(0);
    return count;
  }

  unread(): number {
    return this.live().filter((item) => !item.read).length;
  }

  onChange(listener: (change: InboxChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private find(id: string): Stored {
    const matches = this.live().filter((item) => item.annotation.id.startsWith(id));
    const exact = matches.find((item) => item.annotation.id === id);
    if (exact) return exact;
    if (matches.length === 1) return matches[0]!;
    throw new ArgusError(
      'inbox_item_not_found',
      matches.length
        ? `"${id}" names ${matches.length} inbox items; give more of the id (\`argus inbox\` lists them).`
        : `No inbox item "${id}" (items expire after 7 days). Run \`argus inbox\` to list them.`,
      { details: { id } },
    );
  }

  /** The items, loaded once, without the expired ones (dropped from the file on the next write). */
  private live(): Stored[] {
    this.items ??= this.load();
    const oldest = this.now() - this.ttlMs;
    if (this.items.some((item) => item.at < oldest)) this.items = this.items.filter((item) => item.at >= oldest);
    return this.items;
  }

  private load(): Stored[] {
    if (!existsSync(this.file)) return [];
    try {
      const parsed = InboxFile.parse(JSON.parse(readFileSync(this.file, 'utf8')));
      // an item that does not parse (hand-edited, older format) is dropped, not the whole inbox
      return parsed.items.flatMap((raw) => {
        const item = Stored.safeParse(raw);
        return item.success ? [item.data] : [];
      });
    } catch {
      return [];
    }
  }

  private save(): void {
    const temp = `${this.file}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify({ version: 1, items: this.items ?? [] }), { mode: 0o600 });
      chmodSync(temp, 0o600);
      renameSync(temp, this.file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  private emit(added: number): void {
    const items = this.live();
    const change: InboxChange = {
      unread: items.filter((item) => !item.read).length,
      added,
      newest: items.at(-1)?.annotation.id ?? null,
    };
    for (const listener of [...this.listeners]) listener(change);
  }
}

function view(item: Stored): InboxItemData {
  return { ...item.annotation, read: item.read };
}
