import { describe, expect, it } from 'vitest';
import { describeLocator, parseLocator, roleWordLocator, snapshotLineLocator } from './locator.js';
import { parseRef } from './ref-registry.js';

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

  it('refuses a role no element has, naming the nearest roles', () => {
    const refused = (target: string) => {
      try {
        parseLocator(target);
      } catch (error) {
        return error as { code: string; message: string; details: { suggestions?: string[] } };
      }
      throw new Error(`${target} was accepted`);
    };
    expect(refused('role=nosuchrole')).toMatchObject({ code: 'invalid_input' });
    expect(refused('role=buton[name="Save"]').details.suggestions).toContain('button');
    expect(refused('role=nav').details.suggestions).toEqual(['navigation']);
    expect(refused('role=input').message).toContain('role=textbox');
    expect(refused('role=clickable').message).toMatch(/click handler/);
    for (const role of ['button', 'navigation', 'contentinfo', 'iframe', 'doc-footnote', 'graphics-symbol', 'NONE'])
      expect(parseLocator(`role=${role}`)).toMatchObject({ kind: 'role', role: role.toLowerCase() });
  });

  it('reads a snapshot line or a bare role word as a role locator (for --scope)', () => {
    expect(snapshotLineLocator('navigation "Primary"')).toEqual({
      kind: 'role',
      role: 'navigation',
      value: 'Primary',
      exact: true,
    });
    expect(snapshotLineLocator('heading "Say \\"hi\\"" [level=2]')).toMatchObject({ value: 'Say "hi"' });
    expect(snapshotLineLocator('region "A long name cut…"')).toMatchObject({ value: 'A long name cut', exact: false });
    for (const text of ['#main', 'main', 'nosuchrole "x"', 'role=main', 'text=hi'])
      expect(snapshotLineLocator(text), text).toBeUndefined();
    expect(roleWordLocator('banner')).toEqual({ kind: 'role', role: 'banner', exact: false });
    for (const text of ['#banner', 'nav', 'banner main']) expect(roleWordLocator(text), text).toBeUndefined();
  });

  it('reads a ref in any case as the ref', () => {
    expect(parseRef('E12')).toBe('e12');
    expect(parseRef('@F2E7')).toBe('f2e7');
    expect(parseRef('[REF=E3]')).toBe('e3');
    expect(parseRef('EM')).toBeUndefined();
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
