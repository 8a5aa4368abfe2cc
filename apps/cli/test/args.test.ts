// The CLI's argument parser (node:util parseArgs under the generated verbs), without a daemon.
import { describe, expect, it } from 'vitest';
import { ProfileName } from '@argus/protocol';
import { UsageError, findCommand, parseCommandArgs, takeGlobalFlags } from '../src/args.js';

function parse(line: string[]): Record<string, unknown> {
  const found = findCommand(line);
  if (!found) throw new Error(`no command for ${line.join(' ')}`);
  return parseCommandArgs(found.command, line.slice(found.used));
}

describe('argus argument parsing', () => {
  it('long flags, inline values, one-letter aliases and --no- switches', () => {
    expect(parse(['snapshot', '-i', '-d', '3', '--scope=e5'])).toMatchObject({
      interactive: true,
      depth: 3,
      scope: 'e5',
    });
    expect(parse(['snapshot', '--interactive=false', '--depth', '2'])).toMatchObject({ interactive: false, depth: 2 });
    expect(parse(['snapshot', '--no-interactive'])).toMatchObject({ interactive: false });
  });

  it('select takes one option or, for a <select multiple>, several as arguments', () => {
    expect(parse(['select', 'e9', 'New York'])).toMatchObject({ target: 'e9', value: ['New York'] });
    expect(parse(['select', 'e4', 'Red', 'Blue'])).toMatchObject({ target: 'e4', value: ['Red', 'Blue'] });
  });

  it('a negative number is an argument, also as a value', () => {
    expect(parse(['scroll', '--dy', '-600'])).toMatchObject({ dy: -600 });
    expect(parse(['scroll', '--dy=-600'])).toMatchObject({ dy: -600 });
  });

  it('refuses what the old parser refused, with the same sentences', () => {
    const refusal = (line: string[]) => {
      try {
        parse(line);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal(['snapshot', '-id', '3'])).toBe(
      'Unknown option -id for `argus snapshot`. See `argus snapshot --help`.',
    );
    expect(refusal(['snapshot', '-d3'])).toBe('Unknown option -d3 for `argus snapshot`. See `argus snapshot --help`.');
    expect(refusal(['snapshot', '--bogus'])).toBe(
      'Unknown option --bogus for `argus snapshot`. See `argus snapshot --help`.',
    );
    expect(refusal(['snapshot', '--depth'])).toBe('--depth needs a value. See `argus snapshot --help`.');
    expect(refusal(['snapshot', '--depth', 'deep'])).toBe(
      '--depth takes a number, got "deep". See `argus snapshot --help`.',
    );
  });

  it('global flags come out anywhere before --, never after', () => {
    expect(takeGlobalFlags(['snapshot', '--json', '-i', '-h', '--', '--json'])).toEqual({
      flags: { json: true, help: true, untrustedEnvelope: false },
      rest: ['snapshot', '-i', '--', '--json'],
    });
    expect(takeGlobalFlags(['eval', '--json=1', '-hx', '--untrusted-envelope'])).toEqual({
      flags: { json: false, help: false, untrustedEnvelope: true },
      rest: ['eval', '--json=1', '-hx'],
    });
    expect(takeGlobalFlags(['--session', 'shop', 'goto', 'x.com', '--session=work'])).toEqual({
      flags: { json: false, help: false, untrustedEnvelope: false, session: 'work' },
      rest: ['goto', 'x.com'],
    });
    expect(() => takeGlobalFlags(['tabs', '--session'])).toThrow(UsageError);
    expect(() => takeGlobalFlags(['--session', '--json', 'tabs'])).toThrow('--session needs a name');
  });

  it("--profile is the Argus profile, except cookie-import-browser's (the user's browser profile)", () => {
    expect(takeGlobalFlags(['--profile', 'work', 'goto', 'x.com']).flags.profile).toBe('work');
    const own = takeGlobalFlags(['cookie-import-browser', '--profile', 'Profile 1', '--domain', 'a.com']);
    expect(own.flags.profile).toBeUndefined();
    expect(parse(own.rest)).toMatchObject({ profile: 'Profile 1', domain: ['a.com'] });
    expect(parse(['cookie-import-browser', '--domain', 'a.com', '--domain', 'b.org'])).toMatchObject({
      domain: ['a.com', 'b.org'],
    });
  });

  it("an invalid --profile name is a usage error before anything starts; the rule is the manifest's", () => {
    for (const name of ['../x', 'a/b', '.hidden', 'x'.repeat(65)]) {
      expect(() => takeGlobalFlags(['--profile', name, 'tabs']), name).toThrow(UsageError);
      expect(() => takeGlobalFlags([`--profile=${name}`, 'tabs']), name).toThrow(/is not a profile name/);
      expect(ProfileName.safeParse(name).success, name).toBe(false);
    }
    for (const name of ['work', 'Work_2.old', 'a-b', 'x'.repeat(64)]) {
      expect(takeGlobalFlags(['--profile', name, 'tabs']).flags.profile).toBe(name);
      expect(ProfileName.safeParse(name).success, name).toBe(true);
    }
  });

  it("journal's --session (after the verb) is its filter; before the verb it is the global session", () => {
    for (const verb of [['journal'], ['journal', 'export']]) {
      const own = takeGlobalFlags([...verb, '--session', 'shop', '--limit', '5']);
      expect(own.flags.session).toBeUndefined();
      expect(parse(own.rest)).toMatchObject({ session: 'shop' });
      const inline = takeGlobalFlags([...verb, '--session=shop']);
      expect(inline.flags.session).toBeUndefined();
      expect(parse(inline.rest)).toMatchObject({ session: 'shop' });
    }
    const global = takeGlobalFlags(['--session', 'shop', 'journal']);
    expect(global.flags.session).toBe('shop');
    expect(parse(global.rest)).not.toHaveProperty('session');
  });

  it('--ops takes a JSON array: an object or plain words are a usage error, never split on commas', () => {
    expect(() => parse(['canvas', 'patch', 'd', '--ops', '{"op":"node.remove","nodeId":"x"}'])).toThrow(
      /--ops takes a JSON array of operations/,
    );
    expect(() => parse(['canvas', 'patch', 'd', '--ops', 'node.remove,x'])).toThrow(/--ops got invalid JSON/);
    expect(parse(['canvas', 'patch', 'd', '--ops', '[{"op":"node.remove","nodeId":"x"}]'])).toMatchObject({
      ops: [{ op: 'node.remove', nodeId: 'x' }],
    });
    // `-` still means stdin
    expect(parse(['canvas', 'patch', 'd', '--ops', '-'])).toMatchObject({ ops: ['-'] });
    // a list of words is still a comma list
    expect(parse(['upload', 'e5', '--files', 'a.png,b.png'])).toMatchObject({ files: ['a.png', 'b.png'] });
  });

  it('--lease and --lease-wait are global flags with values', () => {
    expect(takeGlobalFlags(['click', 'e3', '--lease', 'lease_abc', '--lease-wait=30s'])).toEqual({
      flags: { json: false, help: false, untrustedEnvelope: false, lease: 'lease_abc', leaseWait: '30s' },
      rest: ['click', 'e3'],
    });
    expect(() => takeGlobalFlags(['click', 'e3', '--lease'])).toThrow('--lease takes a lease id');
    expect(() => takeGlobalFlags(['--lease-wait', '--json', 'click'])).toThrow('--lease-wait takes a duration');
  });
});
