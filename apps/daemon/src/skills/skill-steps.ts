/**
 * Turns one recorded command into a skill step, at the moment it is recorded: the target becomes
 * the stable locator the action reported (never a ref, which dies with the page), and a typed value
 * becomes a `{{parameter}}` named from the field's label. The value itself is dropped here, so a
 * recording never holds what was typed (passwords included), not even in memory.
 */
import { type AnyCommand, describeInput } from '@argus/protocol';
import { parseRef } from '@argus/snapshot';
import { fillIsPlain } from '@argus/security';

export interface RecordedParam {
  description: string;
  secret: boolean;
}

export interface RecordedStep {
  command: string;
  input: Record<string, unknown>;
  /** Why the step cannot be replayed (a ref with no stable locator); `skill save` refuses it. */
  problem?: string;
}

/** The field of each command that carries a typed value. */
const VALUE_FIELD: Readonly<Record<string, string>> = {
  'input.fill': 'text',
  'input.type': 'text',
  'input.select': 'value',
};
/** Fields a step never keeps: the tab (a replay acts on the caller's) and the diff (replays take no snapshot). */
const DROPPED = new Set(['tab', 'diff']);
/** Words in a field's label that mark a credential. */
const SECRET_LABEL = /(pass|pwd|secret|token|otp|pin\b|cvv|cvc|card|ssn|credential|api.?key)/i;

/** `textbox "Email address"` -> `email_address`; nothing usable -> `fallback`. */
export function paramName(label: string | undefined, fallback: string): string {
  const quoted = label ? /"((?:[^"\\]|\\.)*)"/.exec(label)?.[1] : undefined;
  const source = quoted ?? (label && /^(label|text)=/.test(label) ? label.replace(/^(label|text)=/, '') : undefined);
  const slug = (source ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^[0-9_]+/, '')
    .slice(0, 32)
    .replace(/_+$/, '');
  return slug || fallback;
}

/** A snapshot label without its ref (`textbox "Username" [e15]`): the ref dies with the page, the file lives on. */
function withoutRef(label: string): string {
  return label.replace(/\s+\[?e\d+\]?$/, '');
}

function defaults(command: AnyCommand): Map<string, string> {
  return new Map(
    describeInput(command.input)
      .filter((field) => field.defaultValue !== undefined)
      .map((field) => [field.name, JSON.stringify(field.defaultValue)]),
  );
}

/** A name not yet taken in this recording (`username`, then `username_2`). */
function freeName(base: string, taken: ReadonlyMap<string, unknown>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

/**
 * The step for one successful command, and the parameter it introduces (added to `params`).
 * `output` is the command's result: its `locator` and `element` say what was acted on.
 */
export function recordStep(
  command: AnyCommand,
  input: unknown,
  output: unknown,
  params: Map<string, RecordedParam>,
): RecordedStep {
  const given = (input ?? {}) as Record<string, unknown>;
  // `element` names what fill and select acted on; `typedInto` the element that had focus for type
  const result = (output ?? {}) as { locator?: unknown; element?: unknown; typedInto?: unknown };
  const skip = defaults(command);
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    if (DROPPED.has(key) || value === undefined) continue;
    if (skip.get(key) === JSON.stringify(value)) continue;
    kept[key] = value;
  }
  const step: RecordedStep = { command: command.name, input: kept };
  for (const field of ['target', 'selector'] as const) {
    const target = kept[field];
    if (typeof target !== 'string') continue;
    if (field === 'target' && typeof result.locator === 'string') kept[field] = result.locator;
    else if (parseRef(target.trim()))
      step.problem = `it targets the ref ${target}, which has no stable locator (an element in a frame, or one without a unique role, label or text). Use a locator (label=…, role=…[name=…]) or a CSS selector for it`;
  }
  const valueField = VALUE_FIELD[command.name];
  if (valueField !== undefined && typeof kept[valueField] === 'string') {
    const acted = command.name === 'input.type' ? result.typedInto : result.element;
    const label = typeof acted === 'string' ? acted : (kept['target'] as string | undefined);
    const name = freeName(paramName(label, valueField === 'value' ? 'choice' : 'text'), params);
    // a fill proves an ordinary field by echoing its value; a masked one (password) or a typed
    // text (no echo) whose label says credential is a secret
    const secret =
      command.name === 'input.fill'
        ? !fillIsPlain(given, output)
        : command.name === 'input.type' && SECRET_LABEL.test(String(label ?? ''));
    params.set(name, { description: `Value for ${label ? withoutRef(label) : 'the focused field'}`, secret });
    kept[valueField] = `{{${name}}}`;
  }
  return step;
}
