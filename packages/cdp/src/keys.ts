/** Key definitions for Input.dispatchKeyEvent: the few fields Chrome needs to synthesise real keys. */
export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
  location?: number;
}

const NAMED: Record<string, KeyDefinition> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
};
for (let n = 1; n <= 12; n++) NAMED[`F${n}`] = { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };

const ALIASES: Record<string, string> = {
  esc: 'Escape',
  return: 'Enter',
  del: 'Delete',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  ctrl: 'Control',
  control: 'Control',
  cmd: 'Meta',
  command: 'Meta',
  meta: 'Meta',
  option: 'Alt',
  alt: 'Alt',
  shift: 'Shift',
  space: 'Space',
  pgup: 'PageUp',
  pgdn: 'PageDown',
};

export const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;
export type Modifier = keyof typeof MODIFIER_BITS;

const SHIFTED: Record<string, string> = {
  '!': 'Digit1',
  '@': 'Digit2',
  '#': 'Digit3',
  $: 'Digit4',
  '%': 'Digit5',
  '^': 'Digit6',
  '&': 'Digit7',
  '*': 'Digit8',
  '(': 'Digit9',
  ')': 'Digit0',
  _: 'Minus',
  '+': 'Equal',
  '{': 'BracketLeft',
  '}': 'BracketRight',
  '|': 'Backslash',
  ':': 'Semicolon',
  '"': 'Quote',
  '<': 'Comma',
  '>': 'Period',
  '?': 'Slash',
  '~': 'Backquote',
};
const PUNCT: Record<string, [string, number]> = {
  '-': ['Minus', 189],
  '=': ['Equal', 187],
  '[': ['BracketLeft', 219],
  ']': ['BracketRight', 221],
  '\\': ['Backslash', 220],
  ';': ['Semicolon', 186],
  "'": ['Quote', 222],
  ',': ['Comma', 188],
  '.': ['Period', 190],
  '/': ['Slash', 191],
  '`': ['Backquote', 192],
};

let lowerNamed: Map<string, KeyDefinition> | undefined;
/** The named keys by their name in lower case (`enter`, `pagedown`): key names are not case-sensitive. */
function namedAnyCase(): Map<string, KeyDefinition> {
  lowerNamed ??= new Map(Object.entries(NAMED).map(([key, definition]) => [key.toLowerCase(), definition]));
  return lowerNamed;
}

/** Definition for one key name or a single printable character; undefined when unknown. */
export function keyDefinition(name: string): KeyDefinition | undefined {
  const named = NAMED[name] ?? NAMED[ALIASES[name.toLowerCase()] ?? ''] ?? namedAnyCase().get(name.toLowerCase());
  if (named) return named;
  if ([...name].length !== 1) return undefined;
  if (/^[a-z]$/i.test(name))
    return { key: name, code: `Key${name.toUpperCase()}`, keyCode: name.toUpperCase().charCodeAt(0), text: name };
  if (/^[0-9]$/.test(name)) return { key: name, code: `Digit${name}`, keyCode: name.charCodeAt(0), text: name };
  const punct = PUNCT[name];
  if (punct) return { key: name, code: punct[0], keyCode: punct[1], text: name };
  const shifted = SHIFTED[name];
  if (shifted) return { key: name, code: shifted, keyCode: 0, text: name };
  if (name === ' ') return NAMED.Space;
  if (name === '\n' || name === '\r') return NAMED.Enter;
  // any other character: no physical key, but Chrome inserts its text
  return { key: name, code: '', keyCode: 0, text: name };
}

export interface KeyCombo {
  modifiers: Modifier[];
  key: KeyDefinition;
}

/** Parses `Control+Shift+K`, `Enter`, `a`, `Shift++`. */
export function parseCombo(combo: string): KeyCombo | undefined {
  const parts = combo === '+' ? ['+'] : combo.split(/\+(?!$)/);
  const keyName = parts.pop();
  if (!keyName) return undefined;
  const modifiers: Modifier[] = [];
  for (const part of parts) {
    const def = keyDefinition(part);
    if (!def || !(def.key in MODIFIER_BITS)) return undefined;
    modifiers.push(def.key as Modifier);
  }
  const key = keyDefinition(keyName);
  return key ? { modifiers, key } : undefined;
}

export function modifierMask(modifiers: readonly Modifier[]): number {
  return modifiers.reduce((mask, modifier) => mask | MODIFIER_BITS[modifier], 0);
}
