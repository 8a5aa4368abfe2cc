import { readFile } from 'node:fs/promises';
import type { ContentEnvelope } from '@argus/security';
import { AGENT_READ_MAX_CHARS, AGENT_SCREENSHOT_PIXELS, AGENT_SCREENSHOT_QUALITY } from '@argus/protocol';
import { ArgusError } from '@argus/protocol/errors';
import { envelopeOutput } from './envelope.js';
import { asArgusError, errorText, invalidArguments } from './errors.js';
import type { OutputOf } from '@argus/protocol/render';
import { type OutputObject, renderOutput } from './render.js';
import type { ToolReach } from './tool-reach.js';
import type { ToolSpec } from './tool-specs.js';

/** What a tool call produced, independent of MCP or OpenCode. */
export type ToolOutcome =
  | {
      ok: true;
      text: string;
      structured: OutputObject;
      image?: { data: string; mimeType: string; path: string | null };
    }
  | { ok: false; text: string; error: ArgusError };

/** The one thing a tool call needs from the daemon (DaemonLink in production, fakes in unit tests). */
export interface CommandCaller {
  /** `signal`: the agent abandoned the call; the daemon is to stop the command. */
  call(command: ToolSpec['command'], input: unknown, options?: { signal?: AbortSignal | undefined }): Promise<unknown>;
}

export interface RunToolContext {
  caller: CommandCaller;
  /** Untrusted-content boundary for page text; undefined turns it off. */
  envelope: ContentEnvelope | undefined;
  /**
   * Fires when the agent abandons the call (MCP `notifications/cancelled`, OpenCode's abort): the
   * daemon cancels the command, so a long wait or type stops and the tab's next command runs.
   */
  signal?: AbortSignal | undefined;
  /** The tools the agent has: a reply's or an error's hint never offers one it lacks (withToolNames). */
  reach?: ToolReach | undefined;
}

/** Validates arguments locally (fast, precise errors; no daemon start for a typo) and rejects unknown names. */
export function checkArguments(spec: ToolSpec, args: unknown): Record<string, unknown> {
  const raw = args ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new ArgusError('invalid_input', `Arguments for ${spec.name} must be an object.`);
  const known = Object.keys(spec.command.input.shape);
  const unknownKeys = Object.keys(raw).filter((key) => !known.includes(key));
  const parsed = spec.command.input.safeParse(raw);
  if (!parsed.success || unknownKeys.length > 0)
    throw invalidArguments(spec.name, parsed.success ? [] : parsed.error.issues, unknownKeys, known);
  return raw as Record<string, unknown>;
}

type ScreenshotOutput = OutputOf<'page.screenshot'>;

/**
 * A screenshot result: the image itself, never its bytes as text. The daemon sends it inline (no
 * read-back of the file it wrote); the file is read only if an answer came without it. The text and
 * structured copy are the rest, page content (the dialogs since the previous reply) between the
 * markers as in any other reply.
 */
async function screenshotOutcome(
  spec: ToolSpec,
  output: ScreenshotOutput,
  input: Record<string, unknown>,
  envelope: ContentEnvelope | undefined,
): Promise<ToolOutcome> {
  const { base64, ...rest } = output;
  const data = base64 ?? (output.path ? (await readFile(output.path)).toString('base64') : undefined);
  const text = renderOutput(spec.command, rest, envelope, input);
  // an object stays an object: envelopeOutput only replaces the values of page-content fields
  const structured = envelopeOutput(spec.command, rest, envelope) as OutputObject;
  if (data === undefined) return { ok: true, text, structured };
  return {
    ok: true,
    text,
    structured,
    image: { data, mimeType: `image/${output.format ?? 'png'}`, path: output.path },
  };
}

/**
 * An agent's screenshot is bounded: JPEG at a modest quality unless it asks for a format (or names a
 * file whose extension says one), downscaled to the agent budget; a tall full page comes back as
 * `screenshot_too_large` instead of an image the model cannot read. The image comes back inline
 * (base64) and is kept as a file as well (keepFile), so the agent has a path it can open or pass on.
 */
export function agentScreenshotInput(input: Record<string, unknown>): Record<string, unknown> {
  const bounded: Record<string, unknown> = {
    maxPixels: AGENT_SCREENSHOT_PIXELS,
    base64: true,
    keepFile: true,
    ...input,
  };
  const named = typeof input.path === 'string' && /\.(png|jpe?g|webp)$/i.test(input.path);
  if (input.format === undefined && !named) {
    bounded.format = 'jpeg';
    bounded.quality ??= AGENT_SCREENSHOT_QUALITY;
  }
  return bounded;
}

/**
 * An agent's input as the daemon gets it: a screenshot bounded (agentScreenshotInput); a snapshot (or
 * the next part of one) and a page's text cut at AGENT_READ_MAX_CHARS unless it names a maxChars, so
 * one call on a huge page cannot fill its context.
 */
function agentInput(command: string, input: Record<string, unknown>): Record<string, unknown> {
  if (command === 'page.screenshot') return agentScreenshotInput(input);
  if ((command === 'snapshot.take' || command === 'read.text') && input.maxChars === undefined)
    return { ...input, maxChars: AGENT_READ_MAX_CHARS };
  return input;
}

/** Runs one tool: validate, call the daemon command, envelope page content, render. Never throws. */
export async function runTool(spec: ToolSpec, args: unknown, context: RunToolContext): Promise<ToolOutcome> {
  try {
    // The raw arguments go to the daemon, which validates again with the same schema (it is the authority).
    const checked = checkArguments(spec, args);
    const input = agentInput(spec.command.name, checked);
    const output = await context.caller.call(spec.command, input, { signal: context.signal });
    // the daemon validated the output with the command's schema: typed by the name
    if (spec.command.name === 'page.screenshot')
      return await screenshotOutcome(spec, output as ScreenshotOutput, input, context.envelope);
    const shown = envelopeOutput(spec.command, output, context.envelope);
    const structured: OutputObject =
      shown && typeof shown === 'object' && !Array.isArray(shown) ? (shown as OutputObject) : { value: shown };
    return { ok: true, text: renderOutput(spec.command, output, context.envelope, input, context.reach), structured };
  } catch (error) {
    const failure = asArgusError(error);
    return { ok: false, text: errorText(failure, context.envelope, context.reach), error: failure };
  }
}
