import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ArgusError, type CallContext } from '@argus/protocol';
import { confinePath, hasScope, writeOutput } from '@argus/security';
import type { Services } from './services.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : [],
  );
}

/**
 * Copies a bundle from the state dir into a directory of the caller's choosing (`--out`), under the
 * caller's path policy (path_forbidden outside the project, the temp dir and the allowed roots), each
 * file written without following links and never over an existing file. Returns the directory.
 */
export async function exportBundle(
  services: Pick<Services, 'access'>,
  ctx: Pick<CallContext, 'cwd' | 'scopes'>,
  bundleDir: string,
  given: string,
): Promise<string> {
  if (!hasScope(ctx.scopes, 'write'))
    throw new ArgusError(
      'forbidden_scope',
      `Copying a bundle to ${given} needs the write scope. Leave --out away; the bundle is in the state dir.`,
    );
  const policy = services.access.paths(ctx);
  const target = confinePath(given, policy);
  for (const file of filesUnder(bundleDir)) {
    const path = relative(bundleDir, file).split(sep).join('/');
    await writeOutput(confinePath(join(target, path), policy), readFileSync(file), {
      overwrite: false,
      policy,
      mode: 0o600,
    });
  }
  return target;
}
