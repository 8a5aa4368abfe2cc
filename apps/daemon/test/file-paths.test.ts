import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createArgusClient } from '@argus/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, useHarness } from './harness.js';

// Attacks on file paths (issue 11 items 2, 9, 10; issue 13 paths), through the real daemon and
// Chromium. "outside" is a directory outside every allowed root (not under the temp dir).

const home = mkdtempSync(join(resolve('.'), '.argus-home-'));
const h = useHarness({ HOME: home });
const outside = mkdtempSync(join(resolve('.'), '.argus-outside-'));
afterAll(() => {
  rmSync(outside, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function clientFor(token: string, cwd?: string) {
  return createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token, ...(cwd ? { cwd } : {}) });
}

beforeAll(async () => {
  await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
});

describe('dangling and swapped symlinks never lead a write outside', () => {
  it('screenshot, pdf, archive, responsive, debug-trace and download refuse a link to a missing file outside', async () => {
    const cases: Array<[string, (path: string) => Promise<unknown>]> = [
      ['shot.png', (path) => h.client.page.screenshot.mutate({ path })],
      ['page.pdf', (path) => h.client.visual.pdf.mutate({ path })],
      ['page.mhtml', (path) => h.client.visual.archive.mutate({ path })],
      ['trace.json', (path) => h.client.capture.debugTrace.mutate({ path })],
      ['resp-375x812.png', () => h.client.visual.responsive.mutate({ prefix: 'resp' })],
      [
        'report.txt',
        (path) => h.client.files.download.mutate({ source: h.server.urlFor('/download/report.txt'), path }),
      ],
    ];
    for (const [name, run] of cases) {
      const victim = join(outside, name);
      symlinkSync(victim, join(h.workspace, name));
      expect(await codeOf(run(name)), name).toBe('path_forbidden');
      expect(existsSync(victim), `${name} was written outside`).toBe(false);
    }
    // a link to a directory outside, in the middle of the path
    symlinkSync(join(outside, 'later'), join(h.workspace, 'later'));
    expect(await codeOf(h.client.page.screenshot.mutate({ path: 'later/x.png' }))).toBe('path_forbidden');
    expect(existsSync(join(outside, 'later'))).toBe(false);
  });

  it('a link that resolves inside is followed to its target; the link itself is never written through', async () => {
    mkdirSync(join(h.workspace, 'real'), { recursive: true });
    symlinkSync(join(h.workspace, 'real', 'inside.png'), join(h.workspace, 'alias.png'));
    const shot = await h.client.page.screenshot.mutate({ path: 'alias.png' });
    expect(shot.path).toBe(join(h.workspace, 'real', 'inside.png'));
    expect(readFileSync(shot.path!).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('scopes and overwriting', () => {
  it('a read token cannot write files, and nobody overwrites without --overwrite', async () => {
    const { token } = await h.client.token.create.mutate({ scope: 'read' });
    const reader = clientFor(token);
    writeFileSync(join(h.workspace, 'precious.png'), 'precious');
    expect(await codeOf(reader.client.page.screenshot.mutate({ path: 'precious.png', overwrite: true }))).toBe(
      'forbidden_scope',
    );
    expect(await codeOf(reader.client.page.screenshot.mutate({ path: 'fresh.png' }))).toBe('forbidden_scope');
    for (const run of [
      () => reader.client.visual.pdf.mutate({}),
      () => reader.client.visual.archive.mutate({}),
      () => reader.client.visual.responsive.mutate({}),
      () => reader.client.capture.debugTrace.mutate({}),
    ]) {
      expect(await codeOf(run())).toBe('forbidden_scope');
    }
    expect((await reader.client.page.screenshot.mutate({ base64: true })).base64).toBeTruthy();
    reader.close();
    expect(readFileSync(join(h.workspace, 'precious.png'), 'utf8')).toBe('precious');

    expect(await codeOf(h.client.page.screenshot.mutate({ path: 'precious.png' }))).toBe('file_exists');
    expect(await codeOf(h.client.visual.archive.mutate({ path: 'precious.png' }))).toBe('file_exists');
    expect(readFileSync(join(h.workspace, 'precious.png'), 'utf8')).toBe('precious');
    // a file named for another kind is never written with image bytes
    expect(await codeOf(h.client.page.screenshot.mutate({ path: 'notes.txt', overwrite: true }))).toBe('invalid_input');
    await h.client.page.screenshot.mutate({ path: 'precious.png', overwrite: true });
    expect(readFileSync(join(h.workspace, 'precious.png')).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('the state dir is out of reach for every path', () => {
  it('no command reads or writes the token file, logs or saved states through a path', async () => {
    const stateFile = join(h.daemon.stateDir, 'daemon.json');
    const before = readFileSync(stateFile, 'utf8');
    writeFileSync(join(h.workspace, 'upload-target.html'), '<input type="file" id="f">');
    await h.client.dom.loadHtml.mutate({ file: 'upload-target.html' });
    expect(await codeOf(h.client.files.upload.mutate({ target: '#f', files: ['.argus/daemon.json'] }))).toBe(
      'path_forbidden',
    );
    expect(await codeOf(h.client.dom.loadHtml.mutate({ file: '.argus/daemon.log' }))).toBe('path_forbidden');
    expect(await codeOf(h.client.state.cookieImport.mutate({ file: '.argus/daemon.json' }))).toBe('path_forbidden');
    expect(await codeOf(h.client.page.screenshot.mutate({ path: '.argus/daemon.json', overwrite: true }))).toBe(
      'path_forbidden',
    );
    symlinkSync(h.daemon.stateDir, join(h.workspace, 'state-link'));
    expect(await codeOf(h.client.files.upload.mutate({ target: '#f', files: ['state-link/daemon.json'] }))).toBe(
      'path_forbidden',
    );
    expect(readFileSync(stateFile, 'utf8')).toBe(before);
    // captures stay usable: a screenshot taken by default can be uploaded
    const shot = await h.client.page.screenshot.mutate({});
    expect((await h.client.files.upload.mutate({ target: '#f', files: [shot.path!] })).files).toEqual([shot.path]);
  });
});

describe('malformed paths are typed errors', () => {
  it('a NUL byte in any path field and a non-Latin-1 user agent are invalid_input', async () => {
    const nul = 'a\0b.png';
    const calls = [
      h.client.page.screenshot.mutate({ path: nul }),
      h.client.capture.debugTrace.mutate({ path: nul }),
      h.client.files.upload.mutate({ target: '#f', files: [nul] }),
      h.client.files.download.mutate({ source: h.server.urlFor('/download/report.txt'), path: nul }),
      h.client.dom.loadHtml.mutate({ file: nul }),
      h.client.state.cookieImport.mutate({ file: nul }),
      h.client.visual.pdf.mutate({ path: nul }),
      h.client.visual.responsive.mutate({ prefix: nul }),
      h.client.visual.archive.mutate({ path: nul }),
      h.client.emulation.useragent.mutate({ userAgent: 'Agent ☃ 1.0' }),
    ];
    for (const call of calls) expect(await codeOf(call)).toBe('invalid_input');
  });
});

describe('paths relative to where the caller stands', () => {
  it('resolves against the cwd the client sends, expands ~, and refuses a bad cwd', async () => {
    mkdirSync(join(h.workspace, 'web'), { recursive: true });
    writeFileSync(join(h.workspace, 'web', 'local.png'), 'not really a png');
    const fromWeb = clientFor(h.daemon.token, join(h.workspace, 'web'));
    const shot = await fromWeb.client.page.screenshot.mutate({ path: 'out/a.png' });
    expect(shot.path).toBe(join(h.workspace, 'web', 'out', 'a.png'));
    await fromWeb.client.dom.loadHtml.mutate({ file: '../upload-target.html' });
    expect((await fromWeb.client.files.upload.mutate({ target: '#f', files: ['local.png'] })).files).toEqual([
      join(h.workspace, 'web', 'local.png'),
    ]);
    fromWeb.close();

    // ~ is the home directory; outside the allowed area unless the operator adds it
    expect(await codeOf(h.client.page.screenshot.mutate({ path: '~/shot.png' }))).toBe('path_forbidden');
    expect(existsSync(join(home, 'shot.png'))).toBe(false);

    // the caller's project joins the area for the root token (the CLI, MCP); not for a scoped token
    const project = mkdtempSync(join(outside, 'project-'));
    mkdirSync(join(project, '.git'));
    mkdirSync(join(project, 'src'));
    const elsewhere = clientFor(h.daemon.token, join(project, 'src'));
    expect((await elsewhere.client.page.screenshot.mutate({ path: 'a.png' })).path).toBe(join(project, 'src', 'a.png'));
    elsewhere.close();
    const { token } = await h.client.token.create.mutate({ scope: 'write' });
    const scopedElsewhere = clientFor(token, join(project, 'src'));
    expect(await codeOf(scopedElsewhere.client.page.screenshot.mutate({ path: 'b.png' }))).toBe('path_forbidden');
    scopedElsewhere.close();

    const lost = clientFor(h.daemon.token, join(h.workspace, 'no-such-dir'));
    expect(await codeOf(lost.client.page.url.query({}))).toBe('invalid_input');
    lost.close();
  });
});
