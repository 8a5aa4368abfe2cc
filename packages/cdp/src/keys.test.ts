import { describe, expect, it } from 'vitest';
import { keyDefinition, modifierMask, parseCombo } from './keys.js';

describe('keys', () => {
  it('parses combos with modifiers and aliases', () => {
    expect(parseCombo('Control+Shift+K')).toMatchObject({
      modifiers: ['Control', 'Shift'],
      key: { key: 'K', code: 'KeyK' },
    });
    expect(parseCombo('ctrl+a')).toMatchObject({ modifiers: ['Control'], key: { code: 'KeyA' } });
    expect(parseCombo('Enter')).toMatchObject({ modifiers: [], key: { key: 'Enter', keyCode: 13 } });
    expect(parseCombo('Shift++')).toMatchObject({ modifiers: ['Shift'], key: { key: '+' } });
    expect(parseCombo('+')).toMatchObject({ modifiers: [], key: { key: '+' } });
    expect(parseCombo('Hyper+x')).toBeUndefined();
    expect(parseCombo('NotAKey')).toBeUndefined();
    // key names in any case, as people and agents type them
    expect(parseCombo('enter')).toMatchObject({ key: { key: 'Enter', keyCode: 13 } });
    expect(parseCombo('shift+TAB')).toMatchObject({ modifiers: ['Shift'], key: { key: 'Tab' } });
    expect(parseCombo('pagedown')).toMatchObject({ key: { key: 'PageDown' } });
    expect(parseCombo('a')).toMatchObject({ key: { key: 'a', code: 'KeyA' } });
  });
  it('knows named keys, characters and modifier bits', () => {
    expect(keyDefinition('esc')?.key).toBe('Escape');
    expect(keyDefinition('F5')?.keyCode).toBe(116);
    expect(keyDefinition('7')).toMatchObject({ code: 'Digit7', text: '7' });
    expect(keyDefinition('é')).toMatchObject({ key: 'é', code: '', text: 'é' });
    expect(modifierMask(['Alt', 'Control', 'Meta', 'Shift'])).toBe(15);
  });
});
