import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CanvasSession } from '@argus/canvas';
import { ArgusError } from '@argus/protocol';
import { writeOutput } from '@argus/security';
import { canvas } from './canvas-lib.js';
import { makeDirs } from '@argus/protocol/make-dirs';

export interface CanvasSummary {
  id: string;
  name: string;
  revision: number;
  pages: number;
  nodes: number;
  path: string;
}

/** A stored file that is not a readable document: listed with why, so it is never silently missing. */
export interface UnreadableDocument {
  id: string;
  path: string;
  error: string;
}

/**
 * The workspace's design documents: one JSON file each under `<state dir>/canvas/`, written
 * atomically (temp file + rename) after every change, and the live sessions (Y.Doc + undo history)
 * of the documents used since the daemon started. History lives as long as the daemon does.
 */
export class CanvasStore {
  private readonly live = new Map<string, CanvasSession>();
  /** One write chain per document, so a slower earlier write never lands over a later one. */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(readonly dir: string) {}

  pathOf(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  has(id: string): boolean {
    return this.live.has(id) || existsSync(this.pathOf(id));
  }

  get(id: string): CanvasSession {
    const open = this.live.get(id);
    if (open) return open;
    const path = this.pathOf(id);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      throw new ArgusError(
        'canvas_not_found',
        `No design document "${id}". \`argus canvas list\` names the ones there are; \`argus canvas new\` makes one.`,
        {
          details: { id },
        },
      );
    }
    const session = canvas().CanvasSession.fromJson(parseJson(text, path), path);
    this.live.set(id, session);
    return session;
  }

  /**
   * The document's revision without needing it to be readable: the live one, else the `revision` its
   * file states (0 when even that cannot be read), so replacing a broken file still moves forward.
   */
  revisionOf(id: string): number {
    const open = this.live.get(id);
    if (open) return open.revision;
    try {
      return this.get(id).revision;
    } catch {
      try {
        const stated = (JSON.parse(readFileSync(this.pathOf(id), 'utf8')) as { revision?: unknown } | null)?.revision;
        return typeof stated === 'number' && Number.isSafeInteger(stated) && stated >= 0 ? stated : 0;
      } catch {
        return 0;
      }
    }
  }

  /** Stores a session under `id` (new, or replacing a loaded one) and writes it. */
  async put(id: string, session: CanvasSession): Promise<CanvasSummary> {
    this.live.get(id)?.destroy();
    this.live.set(id, session);
    await this.persist(id);
    return this.summary(id, session);
  }

  /** Writes the document's current state; resolves once this state (or a later one) is on disk. */
  persist(id: string): Promise<void> {
    const session = this.get(id);
    const previous = this.writes.get(id) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        makeDirs(this.dir, 0o700);
        await writeOutput(this.pathOf(id), `${JSON.stringify(session.toJson(), null, 2)}\n`, {
          overwrite: true,
          mode: 0o600,
        });
      });
    this.writes.set(id, next);
    return next;
  }

  async remove(id: string): Promise<boolean> {
    const known = this.has(id);
    if (!known) this.get(id); // throws canvas_not_found
    await this.writes.get(id)?.catch(() => undefined);
    this.live.get(id)?.destroy();
    this.live.delete(id);
    this.writes.delete(id);
    rmSync(this.pathOf(id), { force: true });
    return true;
  }

  list(): { documents: CanvasSummary[]; unreadable: UnreadableDocument[] } {
    const files = existsSync(this.dir)
      ? readdirSync(this.dir).filter((name) => /^[A-Za-z0-9_-]{1,64}\.json$/.test(name))
      : [];
    const ids = new Set([...files.map((name) => name.slice(0, -'.json'.length)), ...this.live.keys()]);
    const documents: CanvasSummary[] = [];
    const unreadable: UnreadableDocument[] = [];
    for (const id of [...ids].sort()) {
      try {
        documents.push(this.summary(id, this.get(id)));
      } catch (error) {
        // a file that is not a document (hand-edited, half-copied, too deep) does not fail the list,
        // but it is named: a document that vanished from the list would look deleted
        unreadable.push({ id, path: this.pathOf(id), error: error instanceof Error ? error.message : String(error) });
      }
    }
    return { documents, unreadable };
  }

  /** A free id from a name: `Landing page` -> `landing-page`, then `landing-page-2`, ... */
  freeId(name: string): string {
    const base =
      name
        // accents come apart from their letters (NFKD) and are dropped: `Ünïcödé` -> `unicode`
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/[^a-z0-9_-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 56) || 'doc';
    let id = base;
    for (let n = 2; this.has(id); n++) id = `${base}-${n}`;
    return id;
  }

  summary(id: string, session: CanvasSession): CanvasSummary {
    const doc = session.toJson();
    return {
      id,
      name: doc.name,
      revision: doc.revision,
      pages: doc.pages.length,
      nodes: doc.pages.reduce((sum, page) => sum + page.nodes.length, 0),
      path: this.pathOf(id),
    };
  }

  close(): void {
    for (const session of this.live.values()) session.destroy();
    this.live.clear();
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ArgusError('invalid_input', `${path} is not JSON (${(error as Error).message}).`);
  }
}
