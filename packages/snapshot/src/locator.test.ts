import { describe, expect, it } from 'vitest';
import { describeLocator, parseLocator } from './locator.js';

describe('parseLocator', () => {
  it('reads role, text and label locators, exact when quoted', () => {
    expect(parseLocator('role=button')).toEqual({ kind: 'role', role: 'button', exact: false });
    expect(parseLocator('role=Button[name="Sign  up"]')).toEqual({
      kind: 'role',
      role: 'button',
      value: 'Sign up',
      exact: true,
    });
    expect(parseLocator('role=link[name*="read \\"more\\""]')).toEqual({
      kind: 'role',
      role: 'link',
      value: 'read "more"',
      exact: false,
    });
    expect(parseLocator('text=Sign up')).toEqual({ kind: 'text', value: 'Sign up', exact: false });
    expect(parseLocator(' text="Sign up" ')).toEqual({ kind: 'text', value: 'Sign up', exact: true });
    expect(parseLocator('label=Email')).toEqual({ kind: 'label', value: 'Email', exact: false });
  });

  it('leaves refs and CSS selectors alone', () => {
    for (const target of ['e12', '#id', 'button.primary', '[role=button]', 'a[href="text=x"]'])
      expect(parseLocator(target)).toBeUndefined();
  });

  it('rejects malformed locators with a typed error that shows the syntax', () => {
    for (const target of [
      'role=button[name=Sign]',
      'role=',
      'role=button[label="x"]',
      'text=',
      'label=""',
      'role=button[name=""]',
    ]) {
      expect(() => parseLocator(target), target).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    }
  });

  it('describes a locator back in the same syntax', () => {
    for (const target of [
      'role=button',
      'role=button[name="Sign up"]',
      'role=link[name*="more"]',
      'text=Sign up',
      'text="Sign up"',
      'label="E\\"mail"',
    ]) {
      expect(describeLocator(parseLocator(target)!)).toBe(target);
    }
  });
});
