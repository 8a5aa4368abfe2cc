import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli('argus-cli-watch-');

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('argus watch and argus screencast (CLI process)', () => {
  it('watch prints a link whose token is only in the fragment, and the page it names is served', async () => {
    expect((await cli.argus('goto', cli.server.urlFor('/form.html'))).code).toBe(0);
    const watched = await cli.argus('watch');
    expect(watched.code, watched.stderr).toBe(0);
    const [url = '', detail = ''] = watched.stdout.trim().split('\n');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/watch#tab=[0-9A-F]+&token=[\w-]+$/);
    expect(detail).toMatch(/view only, link works until /);
    const page = new URL(url);
    expect(await status(`${page.origin}${page.pathname}`)).toBe(200);
    expect(await status(`${page.origin}${page.pathname}?${page.hash.slice(1)}`)).toBe(400);
  });

  it('screencast start and stop write frames and a manifest into the directory given', async () => {
    const started = await cli.argus('screencast', 'start', 'rec');
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain(`recording tab`);
    expect((await cli.argus('eval', 'document.body.style.background = "red"')).code).toBe(0);
    // the first frame is written once Chrome sends it
    await expect.poll(() => existsSync(join(cli.workspace, 'rec', 'frame-000001.jpg')), { timeout: 15_000 }).toBe(true);
    const stopped = await cli.argus('screencast', 'stop', '--json');
    expect(stopped.code, stopped.stderr).toBe(0);
    const result = JSON.parse(stopped.stdout) as { dir: string; frames: number; reason: string; manifest: string };
    expect(result).toMatchObject({ dir: join(cli.workspace, 'rec'), reason: 'stopped' });
    expect(result.frames).toBeGreaterThan(0);
    const manifest = JSON.parse(readFileSync(result.manifest, 'utf8')) as { frames: Array<{ file: string }> };
    expect(manifest.frames).toHaveLength(result.frames);
    for (const frame of manifest.frames) expect(existsSync(join(result.dir, frame.file))).toBe(true);
  });
});
