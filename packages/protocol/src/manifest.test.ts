import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeInput } from './fields.js';
import { commandByName, commandByTool, commandByVerb, compareNames, listCommands, manifest } from './manifest.js';

describe('manifest invariants', () => {
  const commands = listCommands();

  it('names every command <namespace>.<key> matching where it is registered', () => {
    for (const [namespace, group] of Object.entries(manifest)) {
      for (const [key, command] of Object.entries(group)) expect(command.name).toBe(`${namespace}.${key}`);
    }
  });

  it('has unique names, CLI verbs and tool names', () => {
    const unique = (values: string[]) => expect(new Set(values).size).toBe(values.length);
    unique(commands.map((c) => c.name));
    unique(commands.flatMap((c) => (c.cli === false ? [] : [c.cli.verb])));
    unique(commands.flatMap((c) => (c.tool === false ? [] : [c.tool])));
  });

  it('describes every input field and uses tool names an agent can call', () => {
    for (const command of commands) {
      expect(command.summary.length, command.name).toBeGreaterThan(10);
      if (command.tool !== false) expect(command.tool).toMatch(/^argus_[a-z0-9_]+$/);
      for (const field of describeInput(command.input))
        expect(field.description, `${command.name}.${field.name}`).not.toBe('');
    }
  });

  it('maps every positional and alias to an input field', () => {
    for (const command of commands) {
      if (command.cli === false) continue;
      const fields = new Set(Object.keys(command.input.shape));
      for (const positional of command.cli.positionals ?? [])
        expect(fields.has(positional.replace(/\.\.\.$/, '')), `${command.name}: ${positional}`).toBe(true);
      for (const target of Object.values(command.cli.aliases ?? {}))
        expect(fields.has(target), `${command.name}: ${target}`).toBe(true);
    }
  });

  it('gives every verb and verb alias to one command only', () => {
    const owners = new Map<string, string>();
    for (const command of commands) {
      if (command.cli === false) continue;
      for (const verb of [command.cli.verb, ...(command.cli.verbAliases ?? [])]) {
        expect(owners.get(verb), `${verb}: ${command.name} and ${owners.get(verb)}`).toBeUndefined();
        owners.set(verb, command.name);
      }
    }
  });

  it('produces a JSON schema for every tool input', () => {
    for (const command of commands.filter((c) => c.tool !== false)) {
      const schema = z.toJSONSchema(command.input, { io: 'input' }) as { type?: string };
      expect(schema.type, command.name).toBe('object');
    }
  });

  it('orders command and tool names as localeCompare does', () => {
    for (const names of [commands.map((c) => c.name), commands.flatMap((c) => (c.tool === false ? [] : [c.tool]))]) {
      const byLocale = [...names].sort((a, b) => a.localeCompare(b));
      expect([...names].reverse().sort(compareNames)).toEqual(byLocale);
    }
    expect(listCommands().map((c) => c.name)).toEqual(commands.map((c) => c.name).sort((a, b) => a.localeCompare(b)));
  });

  it('finds commands by name, verb and tool', () => {
    expect(commandByName('page.goto')?.name).toBe('page.goto');
    expect(commandByVerb('goto')?.name).toBe('page.goto');
    expect(commandByTool('argus_goto')?.name).toBe('page.goto');
    expect(commandByVerb('no-such-verb')).toBeUndefined();
  });
});

describe('input schemas', () => {
  const goto = manifest.page.goto.input;

  it('normalises URLs and rejects what is not one', () => {
    expect(goto.parse({ url: 'example.com' }).url).toBe('https://example.com/');
    expect(goto.parse({ url: 'http://127.0.0.1:3000/a' }).url).toBe('http://127.0.0.1:3000/a');
    expect(goto.safeParse({ url: 'http://' }).success).toBe(false);
    // script URLs are never allowed: bad input; file: and view-source: parse, and the daemon's URL
    // policy decides (url_forbidden, apps/daemon/test/file-urls.test.ts)
    expect(goto.safeParse({ url: 'javascript:alert(1)' }).success).toBe(false);
    expect(goto.safeParse({ url: ' JavaScript:alert(1)' }).success).toBe(false);
    expect(goto.parse({ url: 'file:///etc/passwd' }).url).toBe('file:///etc/passwd');
    expect(goto.parse({ url: 'localhost:8123/x' }).url).toBe('http://localhost:8123/x');
    expect(goto.safeParse({ url: '' }).success).toBe(false);
  });

  it('applies defaults and rejects unknown enum values', () => {
    expect(goto.parse({ url: 'https://a.test' })).toMatchObject({ waitUntil: 'load', timeoutMs: 30_000 });
    expect(goto.safeParse({ url: 'https://a.test', waitUntil: 'never' }).success).toBe(false);
  });
});

describe('describeField', () => {
  it('unwraps optional, default and transforms', () => {
    const fields = Object.fromEntries(describeInput(manifest.page.goto.input).map((f) => [f.name, f]));
    expect(fields.url).toMatchObject({ type: 'string', optional: false });
    expect(fields.waitUntil).toMatchObject({
      type: 'enum',
      optional: true,
      defaultValue: 'load',
      values: ['load', 'domcontentloaded', 'none'],
    });
    expect(fields.tab).toMatchObject({ type: 'string', optional: true });
    expect(fields.timeoutMs).toMatchObject({ type: 'number', defaultValue: 30_000 });
  });
});
