import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { providerError } from './provider-error.js';
import { makeDirs } from '@argus/protocol/make-dirs';

export const DEFAULT_TTL_HOURS = 72;

export interface ArtifactManifest {
  id: string;
  kind: 'crawl' | 'research';
  created: string;
  expires: string;
  ttlHours: number;
  files: Array<{ path: string; bytes: number }>;
  summary: Record<string, unknown>;
}

/**
 * Bundles under `<state dir>/artifacts` (mode 0700), one directory each with a `manifest.json`
 * listing its files, when it was made and when it expires (default 72 h). Pages are written as they
 * arrive (streamed: a crawl never holds its pages in memory).
 */
export class ArtifactStore {
  constructor(readonly root: string) {}

  create(kind: ArtifactManifest['kind'], ttlHours = DEFAULT_TTL_HOURS): Bundle {
    makeDirs(this.root, 0o700);
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
    const id = `${kind}-${stamp}-${randomBytes(3).toString('hex')}`;
    return new Bundle(join(this.root, id), id, kind, ttlHours);
  }

  list(): ArtifactManifest[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root)
      .map((id) => this.read(id))
      .filter((manifest): manifest is ArtifactManifest => manifest !== undefined)
      .sort((a, b) => b.created.localeCompare(a.created));
  }

  show(id: string): ArtifactManifest & { dir: string } {
    const manifest = /^[\w.-]+$/.test(id) ? this.read(id) : undefined;
    if (!manifest)
      throw providerError('not_found', `No artifact bundle "${id}". Run \`argus artifacts list\` to see the bundles.`, {
        details: { id },
      });
    return { ...manifest, dir: join(this.root, id) };
  }

  /** Removes expired bundles (or every bundle with `all`); returns the ids removed. */
  cleanup(options: { all?: boolean; now?: number } = {}): string[] {
    const now = options.now ?? Date.now();
    const removed: string[] = [];
    for (const manifest of this.list()) {
      if (!options.all && Date.parse(manifest.expires) > now) continue;
      rmSync(join(this.root, manifest.id), { recursive: true, force: true });
      removed.push(manifest.id);
    }
    return removed;
  }

  private read(id: string): ArtifactManifest | undefined {
    try {
      return JSON.parse(readFileSync(join(this.root, id, 'manifest.json'), 'utf8')) as ArtifactManifest;
    } catch {
      return undefined;
    }
  }
}

export class Bundle {
  private readonly created = new Date();

  constructor(
    readonly dir: string,
    readonly id: string,
    private readonly kind: ArtifactManifest['kind'],
    private readonly ttlHours: number,
  ) {
    makeDirs(dir, 0o700);
  }

  write(path: string, content: string): void {
    const file = this.inside(path);
    makeDirs(dirname(file), 0o700);
    writeFileSync(file, content, { mode: 0o600 });
  }

  /** One JSON record a line, appended as it comes. */
  append(path: string, record: unknown): void {
    const file = this.inside(path);
    makeDirs(dirname(file), 0o700);
    appendFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  finish(summary: Record<string, unknown>): ArtifactManifest {
    const manifest: ArtifactManifest = {
      id: this.id,
      kind: this.kind,
      created: this.created.toISOString(),
      expires: new Date(this.created.getTime() + this.ttlHours * 3_600_000).toISOString(),
      ttlHours: this.ttlHours,
      files: listFiles(this.dir).map((file) => ({
        path: relative(this.dir, file).split(sep).join('/'),
        bytes: statSync(file).size,
      })),
      summary,
    };
    writeFileSync(join(this.dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    return manifest;
  }

  private inside(path: string): string {
    const file = join(this.dir, path);
    if (!file.startsWith(this.dir + sep)) throw new Error(`bundle path escapes its directory: ${path}`);
    return file;
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(join(dir, entry.name))
      : entry.name === 'manifest.json'
        ? []
        : [join(dir, entry.name)],
  );
}
