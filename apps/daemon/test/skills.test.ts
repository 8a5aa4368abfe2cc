import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createArgusClient } from '@argus/client';
import { describe, expect, it } from 'vitest';
import { codeOf, failure, refOf, useHarness } from './harness.js';

const PASSWORD = 'hunter2';

describe('browser skills: record, save, replay (real daemon, real Chromium)', () => {
  const h = useHarness();
  const skillFile = (name: string) => join(h.workspace, '.argus', 'skills', `${name}.json`);
  /** Writes a skill file by hand (the tier's directory made, so a test also runs alone). */
  const writeSkill = (name: string, data: unknown) => {
    mkdirSync(join(h.workspace, '.argus', 'skills'), { recursive: true });
    writeFileSync(skillFile(name), JSON.stringify(data));
  };
  const heading = async () => (await h.client.read.text.query({ target: 'h1' })).text;

  it('records a login flow as locators and parameters, never the typed values', async () => {
    const started = await h.client.skill.record.mutate({ name: 'login', description: 'Sign in to the fixture site' });
    expect(started).toMatchObject({ name: 'login', steps: 0 });
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
    // a read in between is not a step; refs are turned into stable locators
    const snapshot = (await h.client.snapshot.take.mutate({ interactive: true })).text;
    const userRef = /textbox "Username" (e\d+)/.exec(snapshot)?.[1];
    expect(userRef).toBeDefined();
    await h.client.input.fill.mutate({ target: userRef!, text: 'jane' });
    await h.client.input.fill.mutate({ target: '#pass', text: PASSWORD });
    // a failed command is not recorded
    expect(await codeOf(h.client.input.click.mutate({ target: 'text="No such button"', timeoutMs: 200 }))).toBe(
      'element_not_found',
    );
    await h.client.input.click.mutate({ target: 'role=button[name="Sign in"]' });
    expect(await heading()).toBe('Signed in as jane');

    const listed = await h.client.skill.list.query();
    expect(listed.recording).toMatchObject({ name: 'login', steps: 3, startUrl: h.server.urlFor('/login.html') });
    const saved = await h.client.skill.save.mutate({});
    expect(saved.skill).toMatchObject({ name: 'login', tier: 'project', path: skillFile('login'), steps: 3 });
    expect(saved.commands).toEqual(['input.click', 'input.fill']);

    const text = readFileSync(skillFile('login'), 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('jane');
    expect(text).not.toMatch(/"e\d+"/);
    const file = JSON.parse(text) as Record<string, unknown>;
    expect(file).toMatchObject({
      argusSkill: 1,
      name: 'login',
      description: 'Sign in to the fixture site',
      startUrl: h.server.urlFor('/login.html'),
      commands: ['input.click', 'input.fill'],
      params: { username: { secret: false }, password: { secret: true } },
      steps: [
        { command: 'input.fill', input: { target: expect.not.stringMatching(/^e\d+$/), text: '{{username}}' } },
        { command: 'input.fill', input: { text: '{{password}}' } },
        { command: 'input.click', input: { target: 'role=button[name="Sign in"]' } },
      ],
    });
    // saving ended the recording
    expect((await h.client.skill.list.query()).recording).toBeNull();
  });

  it('replays with parameters in one call, and lists missing ones', async () => {
    const missing = await failure(h.client.skill.run.mutate({ name: 'login', start: true }));
    expect(missing.code).toBe('skill_params_missing');
    expect(missing.details?.missing).toEqual(['username', 'password']);
    expect(missing.message).toContain('--param username=');

    const run = await h.client.skill.test.mutate({ name: 'login', params: { username: 'ada', password: PASSWORD } });
    expect(run.steps.map((step) => step.command)).toEqual(['input.fill', 'input.fill', 'input.click']);
    expect(run.url).toBe(h.server.urlFor('/login.html?signed-in'));
    expect(await heading()).toBe('Signed in as ada');

    // run acts on the current page: on the login form again, without --start
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
    await h.client.skill.run.mutate({ name: 'login', params: { username: 'grace', password: PASSWORD } });
    expect(await heading()).toBe('Signed in as grace');
  });

  it('fails a step that no longer matches with its number, verb, locator and the page snapshot', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html?button=Log%20in') });
    const error = await failure(
      h.client.skill.run.mutate({ name: 'login', params: { username: 'ada', password: PASSWORD } }),
    );
    expect(error.code).toBe('skill_step_failed');
    expect(error.details).toMatchObject({
      step: 3,
      command: 'input.click',
      verb: 'click',
      target: 'role=button[name="Sign in"]',
      cause: { code: 'element_not_found' },
    });
    expect(error.message).toContain('step 3 of 3: click role=button[name="Sign in"]');
    expect(String(error.details?.snapshot)).toMatch(/button "Log in" e\d+/);
    expect(error.message).toContain('button "Log in"');
  });

  it('refuses a file edited to run a command outside its declared scope, before any step', async () => {
    const path = skillFile('login');
    const original = JSON.parse(readFileSync(path, 'utf8')) as { commands: string[]; steps: unknown[] };
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
    const title = (await h.client.page.url.query()).title;

    // a step added without declaring it
    const added = {
      ...original,
      steps: [...original.steps, { command: 'page.eval', input: { expression: 'document.title = "pwned"' } }],
    };
    writeFileSync(path, JSON.stringify(added));
    const undeclared = await failure(
      h.client.skill.run.mutate({ name: 'login', params: { username: 'x', password: 'y' } }),
    );
    expect(undeclared.code).toBe('skill_invalid');
    expect(undeclared.details).toMatchObject({ step: 4, command: 'page.eval' });

    // declared too: still refused, whatever the caller (admin here) could run by itself
    writeFileSync(path, JSON.stringify({ ...added, commands: [...original.commands, 'page.eval'] }));
    const declared = await failure(
      h.client.skill.run.mutate({ name: 'login', params: { username: 'x', password: 'y' } }),
    );
    expect(declared.code).toBe('skill_invalid');
    expect(declared.message).toContain('page.eval');
    for (const [command, input] of [
      ['inspect.cookies', {}],
      ['inspect.storage', {}],
    ] as const) {
      writeFileSync(
        path,
        JSON.stringify({
          ...original,
          commands: [...original.commands, command],
          steps: [{ command, input }, ...original.steps],
        }),
      );
      expect(await codeOf(h.client.skill.run.mutate({ name: 'login', params: { username: 'x', password: 'y' } }))).toBe(
        'skill_invalid',
      );
    }
    // nothing ran: the form is untouched and the title is the page's own
    expect(
      (await h.client.read.forms.mutate({})).forms[0]?.fields.find((field) => field.name === 'user')?.value ?? '',
    ).toBe('');
    expect((await h.client.page.url.query()).title).toBe(title);
    writeFileSync(path, JSON.stringify(original));
  });

  it('runs each step as the caller: a read-only token cannot click through a skill', async () => {
    const token = 'read-only-skill-token-0123456789abcdef';
    h.daemon.services.tokens.set(token, ['read']);
    const reader = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token });
    try {
      await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
      const error = await failure(
        reader.client.skill.run.mutate({ name: 'login', params: { username: 'ada', password: PASSWORD } }),
      );
      expect(error.code).toBe('forbidden_scope');
      expect(error.details).toMatchObject({ step: 1, command: 'input.fill' });
      expect(await heading()).toBe('Sign in');
    } finally {
      reader.close();
      h.daemon.services.tokens.delete(token);
    }
  });

  it('refuses a CSS step matching several elements, and lists, shows and removes skills', async () => {
    writeFileSync(
      skillFile('loose'),
      JSON.stringify({
        argusSkill: 1,
        name: 'loose',
        commands: ['input.fill'],
        steps: [{ command: 'input.fill', input: { target: 'input', text: 'x' } }],
      }),
    );
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
    const error = await failure(h.client.skill.run.mutate({ name: 'loose' }));
    expect(error.code).toBe('skill_step_failed');
    expect(error.details).toMatchObject({ step: 1, cause: { code: 'element_ambiguous' } });

    writeFileSync(skillFile('broken'), '{ not json');
    const { skills, dirs } = await h.client.skill.list.query();
    expect(dirs.project).toBe(join(h.workspace, '.argus', 'skills'));
    const byName = new Map(skills.map((skill) => [skill.name, skill]));
    expect(byName.get('login')).toMatchObject({
      tier: 'project',
      params: [
        { name: 'username', secret: false, required: true },
        { name: 'password', secret: true, required: true },
      ],
    });
    expect(byName.get('broken')?.error).toMatch(/not JSON/);
    expect(byName.get('demo-greet')).toMatchObject({ tier: 'bundled', path: null });
    expect(await codeOf(h.client.skill.run.mutate({ name: 'broken' }))).toBe('skill_invalid');

    const shown = await h.client.skill.show.query({ name: 'loose' });
    expect(shown.file).toContain('"loose"');
    expect((await h.client.skill.rm.mutate({ name: 'loose' })).removed).toBe(skillFile('loose'));
    expect(await codeOf(h.client.skill.show.query({ name: 'loose' }))).toBe('skill_not_found');
    expect(await codeOf(h.client.skill.rm.mutate({ name: 'demo-greet' }))).toBe('skill_not_found');
    expect(await codeOf(h.client.skill.save.mutate({}))).toBe('not_recording');
  });

  it('keeps a secret parameter out of the journal and the failure even when typed into an ordinary field', async () => {
    const LEAK = 'LeakMe123';
    writeSkill('swap', {
      argusSkill: 1,
      name: 'swap',
      commands: ['input.fill', 'input.click'],
      params: { username: { secret: false }, password: { secret: true } },
      steps: [
        // the secret goes into the Username box: a plain field, whose fill the journal would keep
        { command: 'input.fill', input: { target: 'label=Username', text: '{{password}}' } },
        { command: 'input.fill', input: { target: '#pass', text: '{{username}}' } },
        { command: 'input.click', input: { target: 'role=button[name="No such button"]', timeoutMs: 300 } },
      ],
    });
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
    const error = await failure(
      h.client.skill.run.mutate({ name: 'swap', params: { username: 'ada', password: LEAK } }),
    );
    expect(error.code).toBe('skill_step_failed');
    expect(error.details).toMatchObject({ step: 3 });
    // the snapshot the failure carries shows the field it was typed into, its value cut
    expect(String(error.details?.snapshot)).toMatch(/textbox "Username" e\d+: \[redacted\]/);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(LEAK);

    // a run that succeeds: its steps' journal rows hold no secret either
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
    writeSkill('swap', {
      argusSkill: 1,
      name: 'swap',
      commands: ['input.fill'],
      params: { password: { secret: true } },
      steps: [{ command: 'input.fill', input: { target: 'label=Username', text: 'user {{password}}' } }],
    });
    await h.client.skill.run.mutate({ name: 'swap', params: { password: LEAK } });
    const { entries } = await h.client.journal.list.query({ limit: 100 });
    const fills = entries.filter((entry) => entry.command === 'input.fill');
    expect(fills.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(entries)).not.toContain(LEAK);
    // nor the file (and its write-ahead log) on disk
    const db = join(h.workspace, '.argus', 'journal.db');
    for (const path of [db, `${db}-wal`]) if (existsSync(path)) expect(readFileSync(path).includes(LEAK)).toBe(false);
  });

  it('records `type` into a focused password field as a secret parameter named after the field', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
    await h.client.skill.record.mutate({ name: 'typed' });
    const snapshot = (await h.client.snapshot.take.mutate({ interactive: true })).text;
    await h.client.input.fill.mutate({ target: refOf(snapshot, /textbox "Username"/), text: 'ada' });
    await h.client.input.click.mutate({ target: '#pass' });
    await h.client.input.type.mutate({ text: 'TypedPw!' });
    await h.client.input.press.mutate({ key: 'Enter' });
    await h.client.skill.save.mutate({});
    const text = readFileSync(skillFile('typed'), 'utf8');
    expect(text).not.toContain('TypedPw!');
    // descriptions name the field, never a ref that dies with the page
    expect(text).not.toMatch(/\be\d+\b/);
    expect(JSON.parse(text)).toMatchObject({
      params: {
        username: { description: 'Value for textbox "Username"', secret: false },
        password: { description: 'Value for textbox "Password"', secret: true },
      },
      steps: [
        { command: 'input.fill', input: { text: '{{username}}' } },
        { command: 'input.click' },
        { command: 'input.type', input: { text: '{{password}}' } },
        { command: 'input.press', input: { key: 'Enter' } },
      ],
    });
  });

  it('refuses a placeholder the skill does not declare, and a script start URL, before any step', async () => {
    writeSkill('undeclared', {
      argusSkill: 1,
      name: 'undeclared',
      commands: ['input.fill'],
      params: { username: {} },
      steps: [
        { command: 'input.fill', input: { target: '#user', text: '{{username}}' } },
        { command: 'input.fill', input: { target: '#pass', text: '{{passwrod}}' } },
      ],
    });
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
    const error = await failure(h.client.skill.run.mutate({ name: 'undeclared', params: { username: 'ada' } }));
    expect(error.code).toBe('skill_invalid');
    expect(error.message).toContain('{{passwrod}}');
    expect(error.message).toContain('"params"');
    // step 1 did not run: nothing typed, literally or otherwise
    const fields = (await h.client.read.forms.mutate({})).forms[0]?.fields ?? [];
    expect(fields.find((field) => field.name === 'user')?.value ?? '').toBe('');
    expect(fields.find((field) => field.name === 'pass')?.value ?? '').toBe('');
    const listed = (await h.client.skill.list.query()).skills.find((skill) => skill.name === 'undeclared');
    expect(listed?.error).toContain('{{passwrod}}');

    writeSkill('scripted', {
      argusSkill: 1,
      name: 'scripted',
      startUrl: 'javascript:alert(1)',
      commands: ['input.click'],
      steps: [{ command: 'input.click', input: { target: '#submit' } }],
    });
    const scripted = await failure(h.client.skill.test.mutate({ name: 'scripted' }));
    expect(scripted.code).toBe('skill_invalid');
    expect(scripted.message).toContain('startUrl');
  });

  it('refuses to start a second recording over one under way, which keeps its steps', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/login.html') });
    await h.client.skill.record.mutate({ name: 'first' });
    await h.client.input.fill.mutate({ target: '#user', text: 'ada' });
    const error = await failure(h.client.skill.record.mutate({ name: 'second' }));
    expect(error.code).toBe('already_recording');
    expect(error.message).toContain('"first" (1 step)');
    expect(error.message).toContain('argus skill save');
    expect(error.message).toContain('argus skill cancel');
    expect((await h.client.skill.list.query()).recording).toMatchObject({ name: 'first', steps: 1 });
    expect((await h.client.skill.cancel.mutate({})).cancelled).toMatchObject({ name: 'first', steps: 1 });
    expect((await h.client.skill.record.mutate({ name: 'second' })).name).toBe('second');
    await h.client.skill.cancel.mutate({});
  });
});
