import { type ToolDefinition, type ToolResult, tool } from '@opencode-ai/plugin/tool';
import { ContentEnvelope } from '@argus/security';
import { type ToolSelection, selectTools } from './profiles.js';
import { selectionReach } from './tool-reach.js';
import { type CommandCaller, runTool } from './run-tool.js';
import { type JsonSchema, type ToolSpec, allToolSpecs } from './tool-specs.js';

/** OpenCode's zod (its tool args must be built with the zod it ships, not ours). */
type OpenCodeZod = typeof tool.schema;
type OpenCodeType = InstanceType<OpenCodeZod['ZodType']>;

function withDescription(schema: OpenCodeType, json: JsonSchema): OpenCodeType {
  return typeof json.description === 'string' ? schema.describe(json.description) : schema;
}

/** One flat JSON-schema property as an OpenCode zod type (our tool inputs are flat by design). */
function propertyType(z: OpenCodeZod, json: JsonSchema): OpenCodeType {
  if (Array.isArray(json.enum) && json.enum.length > 0 && json.enum.every((v) => typeof v === 'string')) {
    return z.enum(json.enum as [string, ...string[]]);
  }
  switch (json.type) {
    case 'string':
      return z.string();
    case 'integer':
      return z.number().int();
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'array':
      return z.array(
        json.items && typeof json.items === 'object' ? propertyType(z, json.items as JsonSchema) : z.unknown(),
      );
    case 'object':
      // A few inputs carry a list of steps ({ command, input }); an object without properties is a record.
      return json.properties && typeof json.properties === 'object'
        ? z.object(shapeOf(z, json))
        : z.record(z.string(), z.unknown());
    default:
      return z.unknown();
  }
}

function shapeOf(z: OpenCodeZod, schema: JsonSchema): Record<string, OpenCodeType> {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, json]) => {
      const base = withDescription(propertyType(z, json), json);
      return [name, required.has(name) ? base : base.optional()];
    }),
  );
}

/** The OpenCode `args` shape of a tool, from the same JSON schema the MCP server lists. */
export function openCodeArgs(spec: ToolSpec, z: OpenCodeZod = tool.schema): Record<string, OpenCodeType> {
  return shapeOf(z, spec.inputSchema);
}

export interface OpenCodeToolsOptions extends ToolSelection {
  caller: CommandCaller;
  untrustedEnvelope?: boolean | undefined;
  specs?: readonly ToolSpec[] | undefined;
}

/** OpenCode tool definitions for the selected manifest tools; failures throw `error[code]: message`. */
export function openCodeTools({
  caller,
  untrustedEnvelope = true,
  specs = allToolSpecs(),
  ...selection
}: OpenCodeToolsOptions): Record<string, ToolDefinition> {
  const envelope = untrustedEnvelope ? new ContentEnvelope() : undefined;
  const selected = selectTools(specs, selection);
  const reach = selectionReach(
    selected.map((spec) => spec.name),
    selection,
    'opencode',
  );
  const entries = selected.map((spec) => {
    const definition = tool({
      description: spec.description,
      args: openCodeArgs(spec),
      async execute(args, context): Promise<ToolResult> {
        // Optional args OpenCode left undefined are dropped, so the daemon applies its defaults.
        const input = Object.fromEntries(
          Object.entries(args as Record<string, unknown>).filter(([, value]) => value !== undefined),
        );
        // OpenCode aborts a tool call the user interrupted: the daemon stops the command
        const outcome = await runTool(spec, input, { caller, envelope, signal: context.abort, reach });
        if (!outcome.ok) throw new Error(outcome.text);
        if (!outcome.image) return outcome.text;
        const { data, mimeType, path } = outcome.image;
        return {
          title: spec.name,
          output: outcome.text,
          attachments: [
            {
              type: 'file',
              mime: mimeType,
              url: `data:${mimeType};base64,${data}`,
              filename: path?.split('/').pop() ?? `screenshot.${mimeType.split('/')[1]}`,
            },
          ],
        };
      },
    });
    return [spec.name, definition as unknown as ToolDefinition] as const;
  });
  return Object.fromEntries(entries);
}
