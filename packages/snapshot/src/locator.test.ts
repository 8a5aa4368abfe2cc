import { describe, expect, it } from 'vitest';
import { isKnownRole, nearestRoles } from './aria-roles.js';
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

  it("reads any role word, an ARIA role or the page's own (refused in the engine only when no element has it)", () => {
    for (const role of ['button', 'navigation', 'contentinfo', 'iframe', 'doc-footnote', 'graphics-symbol', 'NONE'])
      expect(parseLocator(`role=${role}`)).toMatchObject({ kind: 'role', role: role.toLowerCase() });
    expect(parseLocator('role=foo')).toEqual({ kind: 'role', role: 'foo', exact: false });
    expect(parseLocator('role=My_Widget2[name="Go"]')).toEqual({
      kind: 'role',
      role: 'my_widget2',
      value: 'Go',
      exact: true,
    });
  });

  it('names the nearest roles for one that is no ARIA role', () => {
    expect(isKnownRole('nosuchrole')).toBe(false);
    expect(nearestRoles('buton')).toContain('button');
    expect(nearestRoles('nav')).toEqual(['navigation']);
    expect(nearestRoles('input')).toContain('textbox');
    expect(nearestRoles('zzzzzzzzzzzz')).toContain('button');
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
