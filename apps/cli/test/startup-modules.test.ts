import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '@argus/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from './cli-harness.js';

// The CLI knows its verbs from a generated JSON spec so that a command's start-up loads neither zod
// nor the manifest's schemas (they doubled the CPU of `argus status`, 0.25 -> 0.48 s here). One stray
// value import of the protocol package's index (it happened through @argus/security) brings both
// back: this runs the built CLI with a loader hook that lists every file it loads.

const dir = mkdtempSync(join(tmpdir(), 'argus-cli-modules-'));
const hook = join(dir, 'hook.mjs');
const log = join(dir, 'loaded.txt');
writeFileSync(
  hook,
  `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}
`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function loadedBy(...args: string[]): Promise<string[]> {
  writeFileSync(log, '');
  const result = await runProcess(process.execPath, ['--no-warnings', '--experimental-loader', hook, CLI, ...args], {
    env: { ...process.env, ARGUS_STATE_DIR: join(dir, 'state') },
  });
  // `status` with no daemon exits 3 (not running); anything else is a crash
  expect([0, 3], result.stderr).toContain(result.code);
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((url) => fileURLToPath(url));
}

describe('what a CLI command loads at start-up', () => {
  it.each([['status'], ['--help'], ['goto', '--help']])('argus %s loads no zod schema code', async (...args) => {
    const files = await loadedBy(...args);
    expect(files.some((file) => file.endsWith('argus.js'))).toBe(true);
    expect(files.length).toBeGreaterThan(3);
    const withZod = files.filter((file) => readFileSync(file, 'utf8').includes('$ZodType'));
    expect(withZod).toEqual([]);
  });
});
