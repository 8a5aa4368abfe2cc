import { describe, expect, it } from 'vitest';
import { cookieChanges } from './cookie-changes.js';

describe('cookieChanges', () => {
  it('names cookies added, changed and removed, never their digests', () => {
    const before = new Map([
      ['sid@example.com', 'a'],
      ['theme@example.com', 't'],
      ['old@example.com', 'o'],
    ]);
    const after = new Map([
      ['sid@example.com', 'b'],
      ['theme@example.com', 't'],
      ['auth@sso.example.com', 'x'],
    ]);
    expect(cookieChanges(before, after)).toEqual({
      cookiesAdded: ['auth@sso.example.com'],
      cookiesChanged: ['sid@example.com'],
      cookiesRemoved: ['old@example.com'],
    });
  });
});
