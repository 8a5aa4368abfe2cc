// The CLI's argument parser (node:util parseArgs under the generated verbs), without a daemon.
import { describe, expect, it } from 'vitest';
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

  it('--lease and --lease-wait are global flags with values', () => {
    expect(takeGlobalFlags(['click', 'e3', '--lease', 'lease_abc', '--lease-wait=30s'])).toEqual({
      flags: { json: false, help: false, untrustedEnvelope: false, lease: 'lease_abc', leaseWait: '30s' },
      rest: ['click', 'e3'],
    });
    expect(() => takeGlobalFlags(['click', 'e3', '--lease'])).toThrow('--lease takes a lease id');
    expect(() => takeGlobalFlags(['--lease-wait', '--json', 'click'])).toThrow('--lease-wait takes a duration');
  });
});
