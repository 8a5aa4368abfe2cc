import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'argus.js');

let server: FixtureServer;
let workspace: string;
let stateDir: string;

function start(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI, ...args], {
    cwd: workspace,
    env: { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs the CLI as its own process (async: the fixture server lives in this process). */
function argus(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = start(args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.end(stdin);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** Resolves once `read()` satisfies `done`, re-checking whenever the stream emits data. */
function until(
  stream: NodeJS.ReadableStream,
  read: () => string,
  done: (text: string) => boolean,
  what: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.off('data', check);
      reject(new Error(`timed out waiting for ${what}; got:\n${read()}`));
    }, 20_000);
    const check = () => {
      if (!done(read())) return;
      clearTimeout(timer);
      stream.off('data', check);
      resolve();
    };
    stream.on('data', check);
    check();
  });
}

beforeAll(async () => {
  server = await startFixtureServer();
  workspace = mkdtempSync(join(tmpdir(), 'argus-cli-follow-'));
  stateDir = join(workspace, '.argus');
});

afterAll(async () => {
  if (existsSync(join(stateDir, 'daemon.json'))) await argus(['stop']);
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('argus console --follow', () => {
  it('prints console lines as they happen and exits 0 on Ctrl-C', async () => {
    expect((await argus(['goto', server.urlFor('/console.html')])).code).toBe(0);
    const { lastSeq } = JSON.parse((await argus(['console', '--json'])).stdout) as { lastSeq: number };
    // --follow after other flags picks the stream too; --since replays anything logged before it is live
    const follow = start(['console', '--since', String(lastSeq), '--follow']);
    let stdout = '';
    let stderr = '';
    follow.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    follow.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      follow.once('close', (code, signal) => resolve({ code, signal })),
    );
    try {
      await until(
        follow.stderr,
        () => stderr,
        (text) => text.includes('Ctrl-C to stop'),
        'the stream to start',
      );
      expect((await argus(['click', '#log'])).code).toBe(0);
      expect((await argus(['click', '#log'])).code).toBe(0);
      await until(
        follow.stdout,
        () => stdout,
        (text) => text.includes('click 2'),
        'two console lines',
      );
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^#\d+ log +console\.html: click 1 +\(.*console\.html:\d+:\d+\)$/);
      expect(lines[1]).toMatch(/console\.html: click 2/);
      follow.kill('SIGINT');
      expect(await exited).toEqual({ code: 0, signal: null });
    } finally {
      if (follow.exitCode === null) follow.kill('SIGKILL');
    }
  });

  it('network --follow --json prints one JSON object a line', async () => {
    const follow = start(['network', '--follow', '--json', '--filter', '/json']);
    let stdout = '';
    let stderr = '';
    follow.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    follow.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => follow.once('close', (code) => resolve(code)));
    try {
      await until(
        follow.stderr,
        () => stderr,
        (text) => text.includes('Ctrl-C to stop'),
        'the stream to start',
      );
      expect((await argus(['eval', "fetch('/json').then((r) => r.text()).then(() => 1)"])).code).toBe(0);
      await until(
        follow.stdout,
        () => stdout,
        (text) => text.includes('\n'),
        'one request',
      );
      expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({
        method: 'GET',
        status: 200,
        url: server.urlFor('/json'),
      });
      follow.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (follow.exitCode === null) follow.kill('SIGKILL');
    }
  });
});

describe('argus chain / batch / tab-each', () => {
  it('chain reads [verb, ...args] steps on stdin and stops at the first failure (exit 1)', async () => {
    const steps = [['goto', server.urlFor('/form.html')], ['fill', '#name', 'Ada'], ['click', '#nope'], ['url']];
    const result = await argus(['chain'], JSON.stringify(steps));
    expect(result.code).toBe(1);
    // each step as the single verb prints it: goto's title line, fill's element line and replay
    expect(result.stdout).toMatch(/^\[0\] goto {2}Sign up — http:.*form\.html \(200\)$/m);
    expect(result.stdout).toMatch(/^\[1\] fill\n {2}fill textbox "Name".* = "Ada"\n {2}replay: argus fill .* Ada$/m);
    expect(result.stdout).toMatch(/^\[2\] click {2}error\[element_not_found\]/m);
    expect(result.stdout).not.toMatch(/"url":|"navigated":/);
    expect(result.stdout).toMatch(/chain stopped at step 2/);
    expect(result.stdout).not.toMatch(/\[3\]/);
  });

  it('chain refuses bad steps as usage errors before calling the daemon', async () => {
    for (const stdin of ['', 'not json', '[["frobnicate"]]', '[["console","--follow"]]', '[["goto"]]']) {
      const result = await argus(['chain'], stdin);
      expect(result.code, stdin).toBe(2);
      expect(result.stderr).toMatch(/^usage error: /);
    }
  });

  it('batch takes {command, input} objects and tab-each a command line', async () => {
    const batch = await argus(
      ['batch', '--json'],
      JSON.stringify([{ command: 'page.url', input: {} }, ['text', '#nope']]),
    );
    expect(batch.code).toBe(1);
    expect(JSON.parse(batch.stdout)).toMatchObject({ succeeded: 1, failed: 1 });
    const each = await argus(['tab-each', 'url']);
    expect(each.code).toBe(0);
    expect(each.stdout).toMatch(/^tab \w+ {2}http:.*form\.html$/m);
  });
});
