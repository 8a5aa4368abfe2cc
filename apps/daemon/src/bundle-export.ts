import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ArgusError, type CallContext, isArgusError } from '@argus/protocol';
import { confinePath, hasScope, writeOutput } from '@argus/security';
import type { Services } from './services.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : [],
  );
}

/**
 * Where `--out` will copy a bundle, checked before the crawl or research runs (scope, path policy, and
 * a directory that is new or empty), so a refusal does not come after the whole run.
 */
export function bundleTarget(
  services: Pick<Services, 'access'>,
  ctx: Pick<CallContext, 'cwd' | 'scopes'>,
  given: string,
): string {
  if (!hasScope(ctx.scopes, 'write'))
    throw new ArgusError(
      'forbidden_scope',
      `Copying a bundle to ${given} needs the write scope. Leave --out away; the bundle is in the state dir.`,
    );
  const target = confinePath(given, services.access.paths(ctx));
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0))
    throw new ArgusError(
      'file_exists',
      `${target} exists and is not an empty directory: --out never writes over files. Choose a new directory for --out.`,
      { details: { path: target } },
    );
  return target;
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
  const target = bundleTarget(services, ctx, given);
  const policy = services.access.paths(ctx);
  for (const file of filesUnder(bundleDir)) {
    const path = relative(bundleDir, file).split(sep).join('/');
    await writeOutput(confinePath(join(target, path), policy), readFileSync(file), {
      overwrite: false,
      policy,
      mode: 0o600,
    }).catch((error: unknown) => {
      // crawl and research have no --overwrite: the way out is another directory
      if (isArgusError(error) && error.code === 'file_exists')
        throw new ArgusError(
          'file_exists',
          `${join(target, path)} appeared while the bundle was copied. Choose a new directory for --out.`,
          { details: error.details ?? {} },
        );
      throw error;
    });
  }
  return target;
}
