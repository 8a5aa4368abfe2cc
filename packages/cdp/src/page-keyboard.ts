import { ArgusError } from '@argus/protocol';
import { type Modifier, modifierMask, parseCombo, keyDefinition } from './keys.js';
import type { Session } from './session.js';

/** Presses a key or combo (`Enter`, `Control+a`): modifiers down, the key down and up, modifiers up. */
export async function pressCombo(session: Session, combo: string): Promise<void> {
  const parsed = parseCombo(combo);
  if (!parsed) {
    throw new ArgusError(
      'invalid_input',
      `Unknown key "${combo}". Use names like Enter, Tab, Escape, ArrowDown, F5 or a combo such as Control+a.`,
    );
  }
  const mods: Modifier[] = [];
  for (const modifier of parsed.modifiers) {
    mods.push(modifier);
    const def = keyDefinition(modifier);
    if (def) await keyEvent(session, 'rawKeyDown', def, modifierMask(mods), false);
  }
  const mask = modifierMask(mods);
  // with Control/Meta/Alt held a key produces no text (shortcuts), like a real keyboard
  const producesText = !parsed.modifiers.some((modifier) => modifier !== 'Shift');
  await keyEvent(session, 'keyDown', parsed.key, mask, producesText);
  await keyEvent(session, 'keyUp', parsed.key, mask, false);
  for (const modifier of [...parsed.modifiers].reverse()) {
    mods.pop();
    const def = keyDefinition(modifier);
    if (def) await keyEvent(session, 'keyUp', def, modifierMask(mods), false);
  }
}

async function keyEvent(
  session: Session,
  type: 'keyDown' | 'rawKeyDown' | 'keyUp',
  def: NonNullable<ReturnType<typeof keyDefinition>>,
  modifiers: number,
  withText: boolean,
): Promise<void> {
  const text = withText ? def.text : undefined;
  await session.send('Input.dispatchKeyEvent', {
    type: type === 'keyDown' && !text ? 'rawKeyDown' : type,
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    modifiers,
    ...(def.location === undefined ? {} : { location: def.location }),
    ...(text ? { text, unmodifiedText: text } : {}),
  });
}

/** Types text as key presses (characters without a key are inserted as text). */
export async function typeKeys(session: Session, text: string): Promise<void> {
  for (const char of text) {
    const def = keyDefinition(char);
    if (def && def.code) {
      await keyEvent(session, 'keyDown', def, 0, true);
      await keyEvent(session, 'keyUp', def, 0, false);
    } else {
      await session.send('Input.insertText', { text: char });
    }
  }
}
