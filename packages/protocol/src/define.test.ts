import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCommand } from './define.js';

describe('defineCommand', () => {
  const counted = () => {
    const made = { input: 0, output: 0 };
    const command = defineCommand({
      name: 'test.lazy',
      cli: false,
      tool: false,
      kind: 'query',
      scope: 'read',
      summary: 'A command for the test.',
      input: () => {
        made.input++;
        return z.object({ id: z.string().describe('An id') });
      },
      output: () => {
        made.output++;
        return z.object({ title: z.string(), text: z.string() });
      },
      pageContent: ['text'],
    });
    return { made, command };
  };

  it('makes the schemas at first use, once', () => {
    const { made, command } = counted();
    // defined, described by name and kind, and nothing built yet
    expect(command.name).toBe('test.lazy');
    expect(made).toEqual({ input: 0, output: 0 });
    expect(command.input.parse({ id: 'a' })).toEqual({ id: 'a' });
    expect(command.input).toBe(command.input);
    expect(made).toEqual({ input: 1, output: 0 });
    expect(command.output.parse({ title: 't', text: 'x' })).toEqual({ title: 't', text: 'x' });
    expect(command.output).toBe(command.output);
    expect(made).toEqual({ input: 1, output: 1 });
  });

  it('adds the effect fields the output has to the page content it declares', () => {
    const { made, command } = counted();
    expect(command.pageContent).toEqual(['text', 'title']);
    expect(command.pageContent).toBe(command.pageContent);
    expect(made.output).toBe(1);
    // a spread copy (as callers make) carries the same values
    expect({ ...command }.pageContent).toEqual(['text', 'title']);
  });
});
