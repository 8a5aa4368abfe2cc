import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { confinePath } from '@argus/security';
import type { Services } from './services.js';

/** A file-name-safe timestamp, e.g. 2025-01-31T12-00-00-000Z. */
export function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where a capture goes: the caller's path confined to the workspace or temp dir (path_forbidden
 * otherwise; an existing directory or a trailing slash gets a generated file name inside it), or
 * `<stateDir>/captures/<stem>-<time>.<ext>`. The parent directory is created.
 */
export function outputPath(services: Pick<Services, 'workspace' | 'stateDir'>, given: string | undefined, stem: string, ext: string): string {
  const generated = `${stem}-${stamp()}.${ext}`;
  let path: string;
  if (given === undefined) {
    path = join(services.stateDir, 'captures', generated);
  } else {
    path = confinePath(given, { workspace: services.workspace });
    if (/[\\/]$/.test(given) || isDirectory(path)) path = join(path, generated);
  }
  mkdirSync(dirname(path), { recursive: true });
  return path;
}
