import { describe, expect, it } from 'vitest';
import { TabId } from './common.js';
import { describeField } from './fields.js';

describe('TabId', () => {
  it('takes an index as a number (an agent writes {id: 1}) and hands on its digits', () => {
    expect(TabId.parse(1)).toBe('1');
    expect(TabId.parse('2')).toBe('2');
    expect(TabId.parse('A1B2')).toBe('A1B2');
    expect(TabId.optional().parse(undefined)).toBeUndefined();
    expect(TabId.safeParse(1.5).success).toBe(false);
    expect(TabId.safeParse('').success).toBe(false);
  });

  it('stays a string field for the CLI and the docs', () => {
    expect(describeField('tab', TabId.optional())).toMatchObject({ type: 'string', optional: true });
  });
});
