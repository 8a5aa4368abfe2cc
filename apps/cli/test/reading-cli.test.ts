import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli('argus-cli-read-');
const argus = cli.argus;

describe('reading, inspection and visual verbs through the CLI', () => {
  it('positionals, two-word verbs and rendered output', async () => {
    expect((await argus('goto', cli.server.urlFor('/styles.html'))).code).toBe(0);
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

    expect((await argus('goto', cli.server.urlFor('/meta.html'))).code).toBe(0);
    expect((await argus('links', '#top-nav')).stdout.trim().split('\n')).toEqual([
      `Page A  ${cli.server.urlFor('/nav-a.html')}`,
      `Page B  ${cli.server.urlFor('/nav-b.html?x=1#part')}`,
    ]);
    expect((await argus('forms')).stdout).toMatch(/\[e\d+\] search q "Search for" = "argus"/);
    expect((await argus('data', '--og')).stdout).toContain('og:title: Argus OG Title');

    const pdf = await argus('pdf', 'out/page.pdf', '--landscape', '--margins', '1cm');
    expect(pdf.code, pdf.stderr).toBe(0);
    expect(readFileSync(join(cli.workspace, 'out/page.pdf')).subarray(0, 4).toString()).toBe('%PDF');
    const shot = await argus('screenshot', '--clip', '0,0,120,80', '--base64', '--format', 'jpeg');
    expect(Buffer.from(shot.stdout.trim(), 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await argus('pdf', '/etc/x.pdf')).stderr).toMatch(/^error\[path_forbidden\]/);
    expect((await argus('is', '#tip', 'shiny')).code).toBe(2);
  });
});
