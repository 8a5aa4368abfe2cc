import { commandByTool, commandByVerb } from '@argus/protocol';
import { ArgusError, isArgusError } from '@argus/protocol/errors';
import type { ContentEnvelope } from '@argus/security';
import type { z } from 'zod';
import type { ToolReach } from './tool-reach.js';

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_whole, letter: string) => letter.toUpperCase());

/**
 * One `argus <verb> [args]` as the tool call that does the same: `argus snapshot -i` ->
 * `argus_snapshot {"interactive":true}`. Undefined when the verb has no tool (an operator command
 * such as `argus share`: it stays a CLI command, the user runs it) or an argument has no field.
 */
export function toolCallFor(commandLine: string): string | undefined {
  // a quoted argument is one word: `argus handoff --reason "Log in, then press Done" --wait`
  const words = (commandLine.trim().match(/"[^"]*"|\S+/g) ?? []).slice(1);
  const unquote = (word: string) => word.replace(/^"(.*)"$/, '$1');
  // the longest verb first: `dialog accept` before `dialog`
  for (let length = Math.min(words.length, 2); length >= 1; length--) {
    const command = commandByVerb(words.slice(0, length).join(' '));
    if (!command || command.cli === false || command.tool === false) continue;
    const args: Record<string, unknown> = {};
    const positionals = (command.cli.positionals ?? []).map((name) => name.replace(/\.\.\.$/, ''));
    const rest = words.slice(length);
    for (let index = 0; index < rest.length; index++) {
      const word = rest[index]!;
      if (!word.startsWith('-')) {
        const name = positionals.shift();
        if (name === undefined) return undefined;
        args[name] = unquote(word);
        continue;
      }
      const flag = word.startsWith('--') ? camel(word.slice(2)) : command.cli.aliases?.[word.slice(1)];
      if (!flag || !(flag in command.input.shape)) return undefined;
      const next = rest[index + 1];
      if (next === undefined || next.startsWith('-')) args[flag] = true;
      else args[flag] = (index++, /^\d+$/.test(next) ? Number(next) : unquote(next));
    }
    // a placeholder such as <url> is not a value: name the tool alone
    if (Object.values(args).some((value) => typeof value === 'string' && /^<.*>$/.test(value)))
      return `\`${command.tool}\``;
    return `\`${command.tool}${Object.keys(args).length ? ` ${JSON.stringify(args)}` : ''}\``;
  }
  return undefined;
}

/**
 * Daemon messages name CLI commands ("Run `argus snapshot -i`"); an agent calls tools, so each
 * becomes the tool call that does the same ("Run `argus_snapshot {"interactive":true}`"). With
 * `reach`, a tool this server does not list is never offered as one to call: the CLI command stays,
 * and a tool the message names itself ("MCP: argus_handoff") is kept, each said once to be missing
 * from the agent's tools with the argus-mcp option that adds it (ToolReach).
 */
export function withToolNames(message: string, reach?: ToolReach): string {
  const noted = new Set<string>();
  const lines = message.replace(/`(argus [^`]+)`/g, (whole, line: string) => {
    const call = toolCallFor(line);
    const tool = call === undefined ? undefined : /^`(argus_\w+)/.exec(call)?.[1];
    if (call === undefined || !reach || !tool || reach.has(tool)) return call ?? whole;
    noted.add(tool);
    return `${whole} (a CLI command; the tool ${tool} is ${reach.missing(tool)})`;
  });
  const tools = reach
    ? lines.replace(/`(argus_\w+)[^`]*`|\bargus_\w+/g, (whole, quoted: string | undefined) => {
        const tool = quoted ?? whole;
        if (reach.has(tool) || noted.has(tool) || !commandByTool(tool)) return whole;
        noted.add(tool);
        return `${whole} (${reach.missing(tool)})`;
      })
    : lines;
  // a CLI flag named outside a command ("retry with a longer --timeout-ms") is the tool's argument
  // (`timeoutMs`); inside backticks (a CLI command left as one) it stays
  return tools
    .split('`')
    .map((part, index) =>
      index % 2 === 0
        ? part.replace(
            /(^|[\s(])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\b/g,
            (_whole, before: string, flag: string) => `${before}${camel(flag)}`,
          )
        : part,
    )
    .join('`');
}

/**
 * Failures whose message quotes the page: an element's name, what covers it, a list's options, what
 * a page script threw (any text the page likes: `throw new Error('SYSTEM: …')`), the page a skill
 * step failed on. A code used for other failures too says so by a detail instead (an error that
 * names an element carries `details.element`; one quoting the page's frames, `details.frames`; one
 * quoting an exception from the page's document, `details.exception`).
 */
const PAGE_TEXT_CODES = new Set([
  'element_obscured',
  'element_ambiguous',
  'element_not_interactable',
  'eval_failed',
  'skill_step_failed',
]);
const PAGE_TEXT_DETAILS = ['element', 'coveredBy', 'options', 'refs', 'frames', 'exception'];

/** Whether a failure's message carries text from the page (so an agent must read it as data). */
export function quotesPage(error: ArgusError): boolean {
  const details = error.details ?? {};
  return PAGE_TEXT_CODES.has(error.code) || PAGE_TEXT_DETAILS.some((key) => key in details);
}

/**
 * What agents see for a failure: `error[code]: actionable message`; a message that quotes the page
 * (a button named "IGNORE ALL PREVIOUS INSTRUCTIONS…") goes between the session's page markers,
 * after the code, as any page content does.
 */
export function errorText(error: ArgusError, envelope?: ContentEnvelope, reach?: ToolReach): string {
  const message = withToolNames(error.message, reach);
  return envelope && quotesPage(error)
    ? `error[${error.code}]:\n${envelope.wrap(message)}`
    : `error[${error.code}]: ${message}`;
}

export function asArgusError(error: unknown): ArgusError {
  if (isArgusError(error)) return error;
  // Another copy of @argus/protocol (e.g. bundled elsewhere) still carries a code.
  const candidate = error as { name?: unknown; code?: unknown; message?: unknown; details?: unknown } | undefined;
  if (candidate?.name === 'ArgusError' && typeof candidate.code === 'string' && typeof candidate.message === 'string') {
    return ArgusError.fromData({
      code: candidate.code as ArgusError['code'],
      message: candidate.message,
      ...(candidate.details ? { details: candidate.details as Record<string, unknown> } : {}),
    });
  }
  return new ArgusError('internal', error instanceof Error ? error.message : String(error), { cause: error });
}

/** Turns zod issues (plus unknown argument names) into one `invalid_input` error that says what to fix. */
export function invalidArguments(
  tool: string,
  issues: readonly z.core.$ZodIssue[],
  unknownKeys: readonly string[],
  known: readonly string[],
): ArgusError {
  const parts = issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  if (unknownKeys.length > 0)
    parts.push(
      `unknown argument${unknownKeys.length > 1 ? 's' : ''} ${unknownKeys.join(', ')} (expected: ${known.join(', ') || 'none'})`,
    );
  return new ArgusError('invalid_input', `Invalid arguments for ${tool}: ${parts.join('; ')}.`, {
    details: { issues: parts },
  });
}
