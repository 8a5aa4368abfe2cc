import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'argus.js');

let server: FixtureServer;
let workspace: string;
let stateDir: string;

function argus(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: workspace,
      env: { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  server = await startFixtureServer();
  workspace = mkdtempSync(join(tmpdir(), 'argus-cli-read-'));
  stateDir = join(workspace, '.argus');
});

afterAll(async () => {
  if (existsSync(join(stateDir, 'daemon.json'))) await argus('stop');
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('reading, inspection and visual verbs through the CLI', () => {
  it('positionals, two-word verbs and rendered output', async () => {
    expect((await argus('goto', server.urlFor('/styles.html'))).code).toBe(0);
    expect((await argus('title')).stdout.trim()).toBe('Argus Styles Fixture');
    expect((await argus('css', '#tip', 'color')).stdout.trim()).toBe('rgb(0, 128, 0)');
    expect((await argus('is', '#agree', 'checked')).stdout.trim()).toBe('true');
    expect((await argus('is', '#gone', 'visible')).stdout.trim()).toBe('false');
    expect((await argus('attrs', '#tip')).stdout).toContain('data-kind="tip"');
    expect((await argus('storage', 'set', 'theme', 'dark')).stdout).toMatch(/localStorage\["theme"\] set/);
    expect((await argus('storage')).stdout).toContain('theme = "dark"');
    const inspect = await argus('inspect', '#tip');
    expect(inspect.stdout).toMatch(/#main \.note \{ {2}\/\* \(1,1,0\)/);
    expect(inspect.stdout).toContain('color: rgb(0, 128, 0);');

    expect((await argus('goto', server.urlFor('/meta.html'))).code).toBe(0);
    expect((await argus('links', '#top-nav')).stdout.trim().split('\n')).toEqual([`Page A  ${server.urlFor('/nav-a.html')}`, `Page B  ${server.urlFor('/nav-b.html?x=1#part')}`]);
    expect((await argus('forms')).stdout).toMatch(/\[e\d+\] search q "Search for" = "argus"/);
    expect((await argus('data', '--og')).stdout).toContain('og:title: Argus OG Title');

    const pdf = await argus('pdf', 'out/page.pdf', '--landscape', '--margins', '1cm');
    expect(pdf.code, pdf.stderr).toBe(0);
    expect(readFileSync(join(workspace, 'out/page.pdf')).subarray(0, 4).toString()).toBe('%PDF');
    const shot = await argus('screenshot', '--clip', '0,0,120,80', '--base64', '--format', 'jpeg');
    expect(Buffer.from(shot.stdout.trim(), 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await argus('pdf', '/etc/x.pdf')).stderr).toMatch(/^error\[path_forbidden\]/);
    expect((await argus('is', '#tip', 'shiny')).code).toBe(2);
  });
});
