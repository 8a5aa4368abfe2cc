import { readFileSync, writeFileSync } from 'node:fs';
import { type AnyCommand, compareNames, listCommands } from '@argus/protocol';
import { z } from 'zod';
import { toolDescription } from './tool-description.js';

/** A JSON schema as sent to agents: flat, described, without validation noise. */
export type JsonSchema = { [key: string]: unknown };

/** One agent tool, generated from one manifest command. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> };
  /**
   * MCP `outputSchema`: the shape of `structuredContent`, from the manifest's output schema. Left
   * out of the `core` profile's list (it would double its tokens); every reply still carries
   * structuredContent of this shape.
   */
  outputSchema?: JsonSchema & { type: 'object' };
  /** MCP hint: the tool only reads (scope `read`). */
  readOnly: boolean;
  command: AnyCommand;
}

/**
 * Keys that only restate bounds the daemon enforces anyway (it validates every input with the
 * same zod schema). Agents never need them to pick a value, and they cost tokens on every request.
 */
const DROPPED_KEYS = new Set([
  '$schema',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'propertyNames',
]);

/**
 * Inputs the plugin never advertises because it answers them itself: a screenshot tool result
 * always carries the image, so `base64` (image bytes in the JSON output) would only cost tokens,
 * and its pixel budget and where the file goes are the adapter's (run-tool.ts).
 */
export const ADAPTER_HIDDEN_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'page.screenshot': ['base64', 'keepFile', 'maxPixels'],
  'web.crawl': ['progress'],
};

function lean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lean);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYS.has(key)) continue;
    // An optional flag that defaults to false says nothing by stating it.
    if (key === 'default' && value === false) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, lean(property)]));
    } else if (key === 'items' && 'description' in schema && value && typeof value === 'object') {
      // the array says what its items are: an item's own description repeats it
      const { description: _repeated, ...items } = value as JsonSchema;
      out[key] = lean(items);
    } else {
      out[key] = lean(value);
    }
  }
  return out;
}

/** The input JSON schema of a command, as agents see it (`io: 'input'`: before transforms and defaults). */
export function inputSchemaFor(command: AnyCommand): ToolSpec['inputSchema'] {
  const schema = lean(z.toJSONSchema(command.input, { io: 'input', unrepresentable: 'any' })) as JsonSchema;
  const hidden = ADAPTER_HIDDEN_FIELDS[command.name] ?? [];
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).filter(([name]) => !hidden.includes(name)),
  );
  const required =
    Array.isArray(schema.required) && schema.required.length > 0 ? { required: schema.required as string[] } : {};
  return { type: 'object', properties, ...required };
}

/** Keys an output schema does without: prose (the tool's description and renderer say it) and defaults. */
const OUTPUT_DROPPED_KEYS = new Set(['description', 'title', 'default', 'examples', 'additionalProperties']);

/**
 * An output schema as compact as its validation allows: no prose, `required` only at the top (the
 * fields an agent reads first; nested objects list their fields' types), and `anyOf` of plain types
 * (a nullable string) folded into one `type` list. Every reply still validates against it.
 */
function compact(schema: unknown, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((item) => compact(item, depth));
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (OUTPUT_DROPPED_KEYS.has(key) || (key === 'required' && depth > 0)) continue;
    out[key] =
      key === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, compact(property, depth + 1)]))
        : compact(value, depth);
  }
  const variants = out['anyOf'];
  const plain = (item: unknown): item is { type: string } =>
    !!item &&
    typeof item === 'object' &&
    Object.keys(item).length === 1 &&
    typeof (item as JsonSchema).type === 'string';
  if (Array.isArray(variants) && Object.keys(out).length === 1 && variants.every(plain)) {
    const types = [...new Set(variants.map((item) => item.type))];
    return { type: types.length === 1 ? types[0] : types };
  }
  return out;
}

/**
 * The output JSON schema of a command, as `structuredContent` carries it: a page-content field may
 * arrive as one string between the untrusted-content markers instead of its own type, so it says so.
 */
export function outputSchemaFor(command: AnyCommand): ToolSpec['outputSchema'] {
  const schema = compact(lean(z.toJSONSchema(command.output, { io: 'output', unrepresentable: 'any' }))) as JsonSchema;
  if (schema.type !== 'object') return undefined;
  const hidden = ADAPTER_HIDDEN_FIELDS[command.name] ?? [];
  const page = new Set(command.pageContent ?? []);
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)
      .filter(([name]) => !hidden.includes(name))
      .map(([name, property]) => [
        name,
        page.has(name) ? (compact({ anyOf: [property, { type: 'string' }] }) as JsonSchema) : property,
      ]),
  );
  const required = Array.isArray(schema.required)
    ? (schema.required as string[]).filter((name) => !hidden.includes(name))
    : [];
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/**
 * Whether a command is an agent tool: it sets a tool name and is not a stream (a tool call returns
 * once; streams stay with the CLI and scripts).
 */
function isTool(command: AnyCommand): command is AnyCommand & { tool: string } {
  return command.tool !== false && command.kind !== 'subscription';
}

export function toolSpecFor(command: AnyCommand): ToolSpec | undefined {
  if (!isTool(command)) return undefined;
  const outputSchema = outputSchemaFor(command);
  return {
    name: command.tool,
    description: toolDescription(command),
    inputSchema: inputSchemaFor(command),
    ...(outputSchema ? { outputSchema } : {}),
    readOnly: command.scope === 'read',
    command,
  };
}

/** The file the build writes beside the bundled MCP server: its tool specs, computed at build time. */
export const BUILT_TOOL_SPECS = 'tool-specs.json';

/** A spec as the built file keeps it: the command by name. */
type StoredSpec = Omit<ToolSpec, 'command'> & { command: string };

/** Every tool spec, computed from the manifest (zod to JSON Schema for each command's input and output). */
function computeToolSpecs(commands: readonly AnyCommand[]): ToolSpec[] {
  return commands
    .map(toolSpecFor)
    .filter((spec): spec is ToolSpec => spec !== undefined)
    .sort((a, b) => compareNames(a.name, b.name));
}

/** The build's file as JSON (see writeBuiltToolSpecs). */
export function storedToolSpecs(specs: readonly ToolSpec[]): string {
  return JSON.stringify(specs.map(({ command, ...spec }): StoredSpec => ({ ...spec, command: command.name })));
}

/**
 * Writes the tool specs beside the bundled MCP server (the build's last step, tsup.config.ts):
 * converting every command's schemas to JSON Schema was about a fifth of argus-mcp's start-up before
 * its first answer (CPU profile, issue 16). From this module's copy of the manifest, so the file and
 * the bundle beside it are always one build's.
 */
export function writeBuiltToolSpecs(file: string): void {
  writeFileSync(file, storedToolSpecs(computeToolSpecs(listCommands())));
}

/**
 * The specs the build wrote beside this module, with their commands: undefined when there is no such
 * file (running from source, or the unbundled build), or when it names a command this manifest does
 * not have or leaves one out (then they are computed).
 */
function builtToolSpecs(commands: readonly AnyCommand[]): ToolSpec[] | undefined {
  let stored: StoredSpec[];
  try {
    stored = JSON.parse(readFileSync(new URL(`./${BUILT_TOOL_SPECS}`, import.meta.url), 'utf8')) as StoredSpec[];
  } catch {
    return undefined;
  }
  if (!Array.isArray(stored)) return undefined;
  const tools = new Map(commands.filter(isTool).map((command) => [command.name, command]));
  const specs: ToolSpec[] = [];
  for (const { command: name, ...spec } of stored) {
    const command = tools.get(name);
    if (!command || command.tool !== spec.name) return undefined;
    // each tool once: a repeated one would hide one left out
    tools.delete(name);
    specs.push({ ...spec, command });
  }
  return tools.size === 0 ? specs : undefined;
}

let cached: readonly ToolSpec[] | undefined;

/** Every manifest command that sets a tool name (and is not a stream), sorted by tool name. */
export function allToolSpecs(commands: readonly AnyCommand[] = listCommands()): readonly ToolSpec[] {
  if (commands !== listCommands()) return computeToolSpecs(commands);
  cached ??= builtToolSpecs(commands) ?? computeToolSpecs(commands);
  return cached;
}
