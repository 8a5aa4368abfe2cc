import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli('argus-cli-skills-');
const DEMO_PAGE = join(dirname(fileURLToPath(import.meta.url)), '..', 'static', 'demo.html');

/** Runs `argus …` that must succeed; returns its stdout. */
async function run(...args: string[]): Promise<string> {
  const result = await cli.argus(...args);
  expect(result.code, `argus ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

describe('argus skill (issue 19)', () => {
  it('records a login flow from separate CLI commands, saves it, replays it with --param', async () => {
    const url = cli.server.urlFor('/login.html');
    expect(await run('skill', 'record', 'login')).toContain('recording "login"');
    await run('goto', url);
    // by ref: the skill keeps the stable locator the fill reports, not the ref
    const snapshot = await run('snapshot', '-i');
    const userRef = /textbox "Username" (e\d+)/.exec(snapshot)?.[1];
    expect(userRef, snapshot).toBeDefined();
    await run('fill', userRef!, 'jane');
    await run('fill', 'label=Password', 'hunter2');
    await run('click', 'role=button[name="Sign in"]');
    expect(await run('text', 'h1')).toContain('Signed in as jane');
    const saved = await run('skill', 'save');
    const file = join(cli.stateDir, 'skills', 'login.json');
    expect(saved).toContain(`saved skill login to ${file}: 3 steps`);
    expect(saved).toContain('password (secret)');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('jane');
    expect(text).not.toContain(`"${userRef!}"`);

    const replay = await run('skill', 'test', 'login', '--param', 'username=ada', '--param', 'password=hunter2');
    expect(replay).toMatch(/skill login \(project\): 3 steps in .*now at .*login\.html\?signed-in/);
    expect(await run('text', 'h1')).toContain('Signed in as ada');

    // a value with "=" and "," stays whole
    await run('goto', url);
    await run('skill', 'run', 'login', '--param', 'username=a=b,c', '--param', 'password=hunter2');
    expect(await run('text', 'h1')).toContain('Signed in as a=b,c');
  });

  it('names missing parameters, and a step that no longer matches with its locator and the page', async () => {
    const missing = await cli.argus('skill', 'test', 'login', '--param', 'username=ada');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error\[skill_params_missing\].*--param password=/);

    await run('goto', cli.server.urlFor('/login.html?button=Log%20in'));
    const changed = await cli.argus('skill', 'run', 'login', '--param', 'username=ada', '--param', 'password=hunter2');
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('error[skill_step_failed]');
    expect(changed.stderr).toContain('step 3 of 3: click role=button[name="Sign in"]');
    expect(changed.stderr).toMatch(/button "Log in" e\d+/);
    const json = await cli.argus(
      'skill',
      'run',
      'login',
      '--param',
      'username=ada',
      '--param',
      'password=hunter2',
      '--json',
    );
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout || json.stderr)).toMatchObject({
      error: { code: 'skill_step_failed', details: { step: 3, verb: 'click', target: 'role=button[name="Sign in"]' } },
    });
  });

  it('runs the bundled example on the demo page, and lists, shows and removes skills', async () => {
    const page = join(cli.workspace, 'demo.html');
    copyFileSync(DEMO_PAGE, page);
    await run('load-html', page);
    const greeted = await run('skill', 'run', 'demo-greet', '--param', 'your_name=Ada');
    expect(greeted).toContain('skill demo-greet (bundled): 2 steps');
    expect(await run('text', '#greeting')).toContain('Hello, Ada!');

    const listed = await run('skills');
    expect(listed).toMatch(/login\s+project\s+3 steps; username, password \(secret\)/);
    expect(listed).toMatch(/demo-greet\s+bundled/);
    expect(await run('skill', 'show', 'login')).toContain('"argusSkill": 1');
    await run('skill', 'rm', 'login');
    expect(existsSync(join(cli.stateDir, 'skills', 'login.json'))).toBe(false);
    const gone = await cli.argus('skill', 'run', 'login');
    expect(gone.stderr).toContain('error[skill_not_found]');
  });
});
