import { copyFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '@argus/test-kit';
import { describe, expect, it } from 'vitest';
import { CLI, useCli } from './cli-harness.js';

// The README's examples, run: the transcript block marked as verified by this file is replayed
// command by command on the bundled demo page, and `argus demo` (what the README's first command
// ends with) must print the same snapshot and result. A README edit that no longer matches fails here.

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DEMO_PAGE = join(REPO, 'apps', 'cli', 'static', 'demo.html');

interface Step {
  args: string[];
  expected: string;
}

/** `$ argus ...` lines of the marked block, each with the lines printed after it. */
function readmeSteps(readme: string): Step[] {
  const match = /<!-- verified: apps\/cli\/test\/readme\.test\.ts[^>]*-->\s*```\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('README.md has no block verified by apps/cli/test/readme.test.ts');
  const steps: Step[] = [];
  for (const line of (match[1] ?? '').split('\n')) {
    if (line.startsWith('$ argus ')) steps.push({ args: shellWords(line.slice('$ argus '.length)), expected: '' });
    else if (steps.length && line !== '') {
      const step = steps[steps.length - 1] as Step;
      step.expected += `${line}\n`;
    }
  }
  return steps;
}

/** Words of a README command line: spaces split, "double quotes" group (all the block needs). */
function shellWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

describe('README examples, run against the bundled demo page', () => {
  const cli = useCli('argus-readme-');
  const steps = readmeSteps(readFileSync(join(REPO, 'README.md'), 'utf8'));

  it('the transcript block: every command prints exactly what the README shows', async () => {
    expect(steps.length).toBeGreaterThanOrEqual(4);
    const page = join(cli.workspace, 'demo.html');
    copyFileSync(DEMO_PAGE, page);
    const opened = await cli.argus('load-html', page);
    expect(opened.code, opened.stderr).toBe(0);
    for (const step of steps) {
      const started = performance.now();
      const run = await cli.argus(...step.args);
      console.log(`argus ${step.args.join(' ')}: ${Math.round(performance.now() - started)} ms`);
      expect(run.code, `argus ${step.args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.stdout, `argus ${step.args.join(' ')}`).toBe(step.expected);
    }
  });

  it("`argus demo` (the README's demo command) prints the same snapshot and greeting, progress on stderr", async () => {
    const started = performance.now();
    // its own state dir: the demo starts and stops a daemon of its own
    const demo = await runProcess(process.execPath, [CLI, 'demo'], {
      cwd: cli.workspace,
      env: {
        ...process.env,
        ARGUS_STATE_DIR: join(cli.workspace, 'demo-state'),
        ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
      },
      timeoutMs: 60_000,
    });
    console.log(`argus demo: ${Math.round(performance.now() - started)} ms wall`);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stderr.match(/argus: starting the daemon and Chromium…/g)).toHaveLength(1);
    const snapshot = steps.find((step) => step.args.join(' ') === 'snapshot -i');
    const text = steps.find((step) => step.args[0] === 'text');
    expect(demo.stdout).toContain(`$ argus snapshot -i\n${snapshot?.expected ?? '(missing in README)'}`);
    expect(demo.stdout).toContain(`$ argus text "#greeting"\n${text?.expected ?? '(missing in README)'}`);
    expect(demo.stdout).toMatch(/demo finished in \d+ ms/);
  });
});
