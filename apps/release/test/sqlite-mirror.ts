import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * A loopback stand-in for better-sqlite3's GitHub release downloads. npm runs the package's install
 * script in the user's project exactly as on a user's machine; its `prebuild-install` asks
 * `npm_config_better_sqlite3_binary_host` (an option prebuild-install documents for mirrors) for
 * the prebuilt binary, which on the internet comes from GitHub. This network has none, and the
 * fallback (compiling SQLite) takes 4+ minutes on a loaded 2-core machine, so the mirror serves the
 * binary the workspace's own install built, packed the way prebuild-install unpacks it.
 */
export async function startSqliteMirror(
  repoRoot: string,
  dir: string,
): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const packageJson = createRequire(join(repoRoot, 'apps', 'daemon', 'package.json')).resolve(
    'better-sqlite3/package.json',
  );
  const root = dirname(packageJson);
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const binary = join('build', 'Release', 'better_sqlite3.node');
  if (!existsSync(join(root, binary))) throw new Error(`the workspace has no built ${join(root, binary)}`);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  mkdirSync(join(dir, `v${version}`), { recursive: true });
  const tarball = join(dir, `v${version}`, name);
  execFileSync('tar', ['-czf', tarball, '-C', root, binary]);
  const body = readFileSync(tarball);
  const server = createServer((req, res) => {
    if (req.url === `/v${version}/${name}`)
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { npm_config_better_sqlite3_binary_host: `http://127.0.0.1:${port}` },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
