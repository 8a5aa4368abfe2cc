import { ArgusError } from '@argus/protocol';
import { CommandCancelledError, currentCommandScope } from './command-scope.js';
import { type Modifier, modifierMask, parseCombo, keyDefinition } from './keys.js';
import type { Session } from './session.js';

/**
 * How many characters `typeKeys` sends before it waits for Chrome's answers. CDP keeps the order of
 * one session's commands and the renderer dispatches key events one by one, each with its own
 * keydown/keypress/input/keyup, so the page sees what it saw when each answer was awaited before
 * the next key was sent; waiting (two round trips a character, each answered only after the
 * renderer handled the key) made typing cost 4-20 ms a character. The wait after each batch
 * matters too: while input events keep coming, the renderer runs nothing else (input goes first),
 * so a queue kept full (a sliding window) starved the page's own tasks and our liveness probe for as
 * long as the typing lasted, and a long text was judged an unresponsive page. Between batches the
 * queue drains and they run. The batch also bounds what is still sent after the command is
 * cancelled, and keeps its calls (2 a character) under the command scope's listener budget
 * (CALLS_IN_FLIGHT in command-scope.ts).
 */
export const TYPE_BATCH_CHARS = 64;

/** Presses a key or combo (`Enter`, `Control+a`): modifiers down, the key down and up, modifiers up. */
export async function pressCombo(session: Session, combo: string): Promise<void> {
  const parsed = parseCombo(combo);
  if (!parsed) {
    throw new ArgusError(
      'invalid_input',
      `Unknown key "${combo}". Use names like Enter, Tab, Escape, ArrowDown, F5 or a combo such as Control+a.`,
    );
  }
  // sent back to back and awaited together, in order (see TYPE_BATCH_CHARS)
  const events: Array<Promise<void>> = [];
  const mods: Modifier[] = [];
  for (const modifier of parsed.modifiers) {
    mods.push(modifier);
    const def = keyDefinition(modifier);
    if (def) events.push(keyEvent(session, 'rawKeyDown', def, modifierMask(mods), false));
  }
  const mask = modifierMask(mods);
  // with Control/Meta/Alt held a key produces no text (shortcuts), like a real keyboard
  const producesText = !parsed.modifiers.some((modifier) => modifier !== 'Shift');
  events.push(keyEvent(session, 'keyDown', parsed.key, mask, producesText));
  events.push(keyEvent(session, 'keyUp', parsed.key, mask, false));
  for (const modifier of [...parsed.modifiers].reverse()) {
    mods.pop();
    const def = keyDefinition(modifier);
    if (def) events.push(keyEvent(session, 'keyUp', def, modifierMask(mods), false));
  }
  await Promise.all(events);
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

/**
 * Types text as key presses, a keyDown (with its text) and a keyUp per character; characters
 * without a key are inserted as text. Sent TYPE_BATCH_CHARS at a time without waiting for each
 * answer (see there); a cancelled command (its caller went away) stops before the next batch.
 */
export async function typeKeys(session: Session, text: string): Promise<void> {
  const scope = currentCommandScope();
  let batch: Array<Promise<unknown>> = [];
  let count = 0;
  for (const char of text) {
    const def = keyDefinition(char);
    if (def && def.code)
      batch.push(keyEvent(session, 'keyDown', def, 0, true), keyEvent(session, 'keyUp', def, 0, false));
    else batch.push(session.send('Input.insertText', { text: char }));
    if (++count % TYPE_BATCH_CHARS === 0) {
      await Promise.all(batch);
      batch = [];
      if (scope?.active && scope.signal?.aborted) throw new CommandCancelledError();
    }
  }
  await Promise.all(batch);
}
