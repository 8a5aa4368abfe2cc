import { type AnyCommand, commandByName } from '@argus/protocol';
import { type RenderContext, renderCommand } from '@argus/protocol/render';
import type { ContentEnvelope } from '@argus/security';
import { withToolNames } from './errors.js';
import type { ToolReach } from './tool-reach.js';

/** A plain JSON object (what every manifest output is). */
export type OutputObject = Record<string, unknown>;

/** Null, undefined or an empty list: nothing to show (and, for page content, nothing to mark). */
export function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

const toolName = (name: string) => {
  const command = commandByName(name);
  return command && command.tool !== false ? command.tool : name;
};

/**
 * The renderers' context for an agent: tool names and tool calls, never CLI commands. With `reach`,
 * a reply that names a tool the server does not list says so, as an error does (withToolNames): a
 * core agent told to hand a challenge to a person learns it has no argus_handoff, and how to get it.
 */
export function agentContext(input: Readonly<Record<string, unknown>>, reach?: ToolReach): RenderContext {
  return {
    surface: 'agent',
    input,
    label: toolName,
    hint: (name, hintInput = {}) => {
      const args = Object.entries(hintInput).filter(([, value]) => value !== undefined && value !== false);
      const tool = toolName(name);
      const call = `${tool}${args.length ? ` ${JSON.stringify(Object.fromEntries(args))}` : ''}`;
      return reach && !reach.has(tool) ? `${call} (${reach.missing(tool)})` : call;
    },
    say: (message) => withToolNames(message, reach),
  };
}

/** Whether the output carries page content (a field the manifest marks, not empty). */
function hasPageContent(command: AnyCommand, output: unknown): boolean {
  if (!command.pageContent?.length || !output || typeof output !== 'object') return false;
  const fields = output as OutputObject;
  return command.pageContent.some((field) => !isEmpty(fields[field]));
}

/**
 * Text an agent reads for a tool result: the command's own renderer (the one the CLI prints), in
 * the agent's words (tool names), between one pair of untrusted-content markers when the result
 * carries page content (one boundary per reply, however many page fields it has).
 */
export function renderOutput(
  command: AnyCommand,
  output: unknown,
  envelope?: ContentEnvelope,
  input: Readonly<Record<string, unknown>> = {},
  reach?: ToolReach,
): string {
  const text = renderCommand(command.name, output, agentContext(input, reach));
  return envelope && hasPageContent(command, output) ? envelope.wrap(text) : text;
}
