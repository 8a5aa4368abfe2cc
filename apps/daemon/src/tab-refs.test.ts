import { ArgusError } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { resolveTabRef, shortIds } from './tab-refs.js';

const tabs = ['37F0AA11', '37F1BB22', 'C0FFEE33', '1234ABCD'].map((id) => ({ id }));

const failure = (ref: string): ArgusError => {
  try {
    resolveTabRef(tabs, ref);
  } catch (error) {
    if (error instanceof ArgusError) return error;
  }
  throw new Error(`expected ${ref} to be refused`);
};

describe('tab references', () => {
  it('gives each id its shortest unique prefix of at least 4 characters', () => {
    expect([...shortIds(tabs.map((tab) => tab.id)).values()]).toEqual(['37F0', '37F1', 'C0FF', '1234']);
    expect(shortIds(['ABCDE1', 'ABCDE2']).get('ABCDE1')).toBe('ABCDE1');
  });

  it('resolves an index, a prefix in any case and a full id', () => {
    expect(resolveTabRef(tabs, '2')).toBe('37F1BB22');
    expect(resolveTabRef(tabs, '37f0')).toBe('37F0AA11');
    expect(resolveTabRef(tabs, 'C0FFEE33')).toBe('C0FFEE33');
    // four digits and more are an id prefix, not an index
    expect(resolveTabRef(tabs, '1234')).toBe('1234ABCD');
  });

  it('refuses an ambiguous prefix, listing the candidates, and an unknown one or index', () => {
    const ambiguous = failure('37F');
    expect(ambiguous.code).toBe('invalid_input');
    expect(ambiguous.details?.['candidates']).toEqual(['1 (37F0)', '2 (37F1)']);
    expect(ambiguous.message).toContain('matches 2 tabs');
    expect(failure('ZZZZ').code).toBe('tab_not_found');
    const index = failure('9');
    expect(index.code).toBe('tab_not_found');
    expect(index.message).toContain('there are 4 tabs');
  });
});
