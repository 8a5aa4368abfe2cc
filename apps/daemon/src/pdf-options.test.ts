import { describe, expect, it } from 'vitest';
import { parseMargins } from './pdf-options.js';

describe('parseMargins', () => {
  it('follows the CSS margin shorthand and converts to inches', () => {
    expect(parseMargins('1in')).toEqual({ top: 1, right: 1, bottom: 1, left: 1 });
    expect(parseMargins('2.54cm 25.4mm')).toEqual({ top: 1, right: 1, bottom: 1, left: 1 });
    expect(parseMargins('72pt, 96px, 6pc')).toEqual({ top: 1, right: 1, bottom: 1, left: 1 });
    expect(parseMargins('1in 2in 3in 4in')).toEqual({ top: 1, right: 2, bottom: 3, left: 4 });
    expect(parseMargins('0')).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
  });

  it('refuses anything else with invalid_input', () => {
    for (const bad of ['', 'wide', '1in 2in 3in 4in 5in', '-1in', '1em', '20in']) {
      expect(() => parseMargins(bad)).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    }
  });
});
