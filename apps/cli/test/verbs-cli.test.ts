import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

// The verbs of issue 14 as a user types them: one test per verb family, through the real CLI process.

const APP = `<!doctype html><title>api app</title><pre id="out">idle</pre>
<script>
async function load() {
  try {
    const response = await fetch('/api/x');
    return { status: response.status, body: await response.text(), a: response.headers.get('x-a'), b: response.headers.get('x-b') };
  } catch (error) {
    return { error: String(error) };
  }
}
</script>`;

describe('argus route / routes / unroute', () => {
  const cli = useCli('argus-verbs-');
  let app: FixtureServer;
  beforeAll(async () => {
    app = await startFixtureServer({
      pages: { '/app': APP, '/api/x': () => ({ contentType: 'application/json', body: '{"source":"server"}' }) },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('mocks, lists, aborts and removes routes', async () => {
    const opened = await cli.argus('goto', `${app.origin}/app`);
    expect(opened.code, opened.stderr).toBe(0);
    const added = await cli.argus(
      'route',
      '**/api/x',
      '--json-body',
      '{"cli":1}',
      '--header',
      'X-A: 1',
      '--header',
      'X-B: 2',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^route r1 on tab \S+: \*\*\/api\/x -> fulfil 200 application\/json, 9 bytes/);
    const mocked = await cli.argus('eval', 'load()', '--json');
    expect(JSON.parse(mocked.stdout).value).toEqual({ status: 200, body: '{"cli":1}', a: '1', b: '2' });
    const listed = await cli.argus('routes');
    expect(listed.stdout).toContain('**/api/x  fulfil 200 application/json, 9 bytes');
    expect(listed.stdout).toContain('1 handled');
    expect(listed.stdout).toMatch(/requests paused (\d+), answered \1, held 0/);

    expect((await cli.argus('route', '/api/x', '--abort')).code).toBe(0);
    expect(JSON.parse((await cli.argus('eval', 'load()', '--json')).stdout).value.error).toMatch(/Failed to fetch/);

    const removed = await cli.argus('unroute', '--all');
    expect(removed.stdout).toBe('removed 2 route(s): **/api/x, **/api/x\n');
    expect(JSON.parse((await cli.argus('eval', 'load()', '--json')).stdout).value).toMatchObject({
      body: '{"source":"server"}',
    });
    expect((await cli.argus('routes')).stdout).toMatch(/^\(no routes\)/);

    const bad = await cli.argus('route', '**/api/x');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/Say what the route does/);
  });
});

describe('argus eval --file', () => {
  const cli = useCli('argus-eval-file-');

  it('runs a file relative to the current directory', async () => {
    writeFileSync(join(cli.workspace, 'script.js'), 'const a = 20;\na + 22\n');
    const result = await cli.argus('eval', '--file', 'script.js');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('42\n');
    const refused = await cli.argus('eval', '--file', '/etc/hostname');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/path_forbidden/);
  });
});
