// The replay line an action prints (`replay: argus fill 'label="Email"' …`): it names the element by
// its locator, and never shows back text that may be a secret (the journal never stores it either).
import { describe, expect, it } from 'vitest';
import { replayLine } from '../src/command-line.js';
import { cliCommands } from '../src/spec.js';

function command(name: string) {
  const found = cliCommands().find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
}

describe('replay lines', () => {
  it('repeat an ordinary fill with its text', () => {
    expect(
      replayLine(
        command('input.fill'),
        { locator: 'label="Email"', value: 'ada@example.com' },
        { target: 'e1', text: 'ada@example.com' },
      ),
    ).toBe(`argus fill 'label="Email"' ada@example.com`);
  });

  it('leave out the text of a password field, of a field named like a credential, and of typing', () => {
    // the field's value came back masked: a password field
    const password = replayLine(
      command('input.fill'),
      { locator: 'label="Password"', value: '••••' },
      { target: 'e1', text: 's3cretPW' },
    );
    expect(password).toBe(`argus fill 'label="Password"' '<secret>'`);
    // a one-time code field shows its value, but its name says what it holds
    const otp = replayLine(
      command('input.fill'),
      { locator: '#otp-code', value: '493021' },
      { target: '#otp-code', text: '493021' },
    );
    expect(otp).not.toContain('493021');
    // a token-looking text in an ordinary field
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    expect(
      replayLine(
        command('input.fill'),
        { locator: 'label="Note"', value: token },
        {
          target: 'e2',
          text: token,
        },
      ),
    ).not.toContain(token);
    // typed keys have no masked value to tell a password by: never shown back
    expect(
      replayLine(command('input.type'), { locator: 'label="Password"' }, { target: 'e1', text: 'hunter22' }),
    ).not.toContain('hunter22');
  });
});
