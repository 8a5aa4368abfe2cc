// Help, verb groups and suggestions from the generated manifest, without a daemon or a process.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS, findCommand, takeGlobalFlags } from '../src/args.js';
import { BROKEN_PIPE_EXIT, exitOnBrokenPipe } from '../src/broken-pipe.js';
import { HELP_GROUPS, generalHelp } from '../src/help.js';
import { cliCommands } from '../src/spec.js';
import { WORD_HINTS, unknownCommand } from '../src/suggest.js';
import { groupHelp, verbGroup } from '../src/verb-groups.js';

const verbed = cliCommands().flatMap((command) => (command.cli === false ? [] : [{ ...command, cli: command.cli }]));

describe('argus --help', () => {
  it('lists every manifest verb under some group (a new command cannot be left out)', () => {
    const grouped = new Set(HELP_GROUPS.flatMap((group) => group.namespaces));
    const orphans = verbed.filter((command) => !grouped.has(command.name.split('.')[0] ?? ''));
    expect(
      orphans.map((command) => `${command.cli.verb} (${command.name})`),
      'add their namespace to HELP_GROUPS in src/help.ts',
    ).toEqual([]);
    const lines = generalHelp().split('\n');
    for (const { cli } of verbed)
      expect(
        lines.some((line) => line.startsWith(`  ${cli.verb} `)),
        cli.verb,
      ).toBe(true);
  });

  it('lists every global option, and each one is taken off the command line', () => {
    const help = generalHelp();
    for (const [flag] of GLOBAL_OPTIONS) {
      expect(help).toContain(`  ${flag} `);
      for (const spelling of flag.split(', ')) {
        const [name, value] = spelling.split(' ');
        if (name === '-V' || name === '--version') continue; // main reads these as the first word
        const { rest } = takeGlobalFlags(['url', name as string, ...(value ? [value] : [])]);
        expect(rest, spelling).toEqual(['url']);
      }
    }
    expect(help).toMatch(/--profile NAME/);
  });
});

describe('verb groups', () => {
  it('a word that only starts two-word verbs is a group; a verb is not', () => {
    for (const word of ['session', 'config', 'skill', 'canvas', 'state', 'token', 'artifacts', 'screencast', 'cookie'])
      expect(verbGroup(word)?.members.length, word).toBeGreaterThan(0);
    expect(verbGroup('config')?.members.map(({ sub }) => sub)).toEqual(['get', 'list', 'set']);
    for (const word of ['tab', 'journal', 'goto', 'frobnicate', '--json'])
      expect(verbGroup(word), word).toBeUndefined();
  });

  it('says what is missing and lists each subcommand with its usage', () => {
    const alone = unknownCommand(['config']);
    expect(alone.split('\n')[0]).toBe('`argus config` needs a subcommand: get | list | set');
    expect(alone).toMatch(/^ {2}argus config get <key> +\S/m);
    expect(alone).toMatch(/^ {2}argus config set <key>/m);
    const wrong = unknownCommand(['config', 'lsit']);
    expect(wrong).toMatch(
      /^"lsit" is not a subcommand of `argus config` \(get \| list \| set\)\. Did you mean `argus config list`\?/,
    );
    expect(unknownCommand(['session', 'nope'])).toMatch(/^"nope" is not a subcommand of `argus session`/);
    // the plural verb beside the group is pointed to
    expect(unknownCommand(['profile'])).toMatch(/See also `argus profiles`/);
    const help = groupHelp(verbGroup('canvas')!);
    for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    expect(help).toMatch(/^Usage: argus canvas <subcommand>/);
  });
});

describe('unknown words', () => {
  it('an option before any verb is an unknown global option, listing the global options', () => {
    const message = unknownCommand(['--bogus', 'url']);
    expect(message).toMatch(/^Unknown global option "--bogus"\./);
    expect(message).toContain('--profile NAME');
    expect(unknownCommand(['--bogus=1'])).toMatch(/^Unknown global option "--bogus"\./);
  });

  it('words people type for another verb point to it; typos to the nearest verbs', () => {
    expect(unknownCommand(['markdown'])).toBe(
      'Unknown command "markdown". Did you mean `argus fetch <url>` (Markdown is its default output)? Run `argus help` for the list of commands.',
    );
    expect(unknownCommand(['snapshto'])).toMatch(/Did you mean `argus snapshot`\?/);
    expect(unknownCommand(['frobnicate'])).not.toMatch(/Did you mean/);
  });

  it('every hint names an existing verb, and no hinted word is a verb or a group itself', () => {
    for (const [word, [verb]] of Object.entries(WORD_HINTS)) {
      expect(findCommand(verb.split(' '))?.used, `${word} -> ${verb}`).toBe(verb.split(' ').length);
      expect(findCommand([word]), word).toBeUndefined();
      expect(verbGroup(word), word).toBeUndefined();
    }
  });
});

describe('a closed output pipe', () => {
  it('EPIPE ends the process with 141; any other write error is still thrown', () => {
    const stream = new EventEmitter();
    const exits: number[] = [];
    const undo = exitOnBrokenPipe([stream], (code) => exits.push(code));
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(exits).toEqual([BROKEN_PIPE_EXIT]);
    expect(BROKEN_PIPE_EXIT).toBe(128 + 13);
    expect(() => stream.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' }))).toThrow('EIO');
    // `argus mcp` takes the handling back: its server shuts down on a closed stdout itself
    undo();
    expect(stream.listenerCount('error')).toBe(0);
  });
});
