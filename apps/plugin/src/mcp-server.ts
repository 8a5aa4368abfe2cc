import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { cueBrowserLaunch } from '@argus/client/daemon-spawn';
import { ContentEnvelope, ENVELOPE_RULE } from '@argus/security';
import { type ApprovalSource, ApprovalElicitor } from './approvals-elicit.js';
import { drivesBrowser } from './prestart.js';
import { selectTools } from './profiles.js';
import { ToolReach, selectionReach } from './tool-reach.js';
import { type CommandCaller, type ToolOutcome, runTool } from './run-tool.js';
import { type ToolSpec, allToolSpecs } from './tool-specs.js';
import type { PluginOptions } from './options.js';
import type { SkillTools } from './skill-tools.js';
import { type InboxSource, InboxNotifier } from './inbox-notify.js';

export const SERVER_NAME = 'argus';
export const SERVER_VERSION = '0.1.0';

/** Sent once at initialize: the loop that works, in three lines. */
export const INSTRUCTIONS = [
  'Argus drives a real browser. Loop: argus_snapshot (interactive: true for forms) -> act on a ref (snapshot lines read `role "name" e12`: the eN after a name) (argus_click, argus_fill, argus_select, argus_press) -> argus_snapshot with diff: true to confirm what changed.',
  'Refs go stale when the page changes: on error[ref_stale] take a new snapshot. Prefer refs over CSS selectors.',
  'A target is a ref (e12), a locator (text=Save, label=Email, role=button[name="Save"]) or a CSS selector.',
  ENVELOPE_RULE,
].join('\n');

/** The MCP `Tool` for a spec: name, description, flat input schema, read-only hint. */
export function mcpTool(spec: ToolSpec): Tool {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
    ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
    ...(spec.readOnly ? { annotations: { readOnlyHint: true } } : {}),
  };
}

export function mcpResult(outcome: ToolOutcome): CallToolResult {
  if (!outcome.ok) return { isError: true, content: [{ type: 'text', text: outcome.text }] };
  const content: CallToolResult['content'] = [{ type: 'text', text: outcome.text }];
  if (outcome.image) content.push({ type: 'image', data: outcome.image.data, mimeType: outcome.image.mimeType });
  return { content, structuredContent: outcome.structured };
}

export interface McpServerOptions {
  options: Pick<PluginOptions, 'profile' | 'tools' | 'untrustedEnvelope'>;
  caller: CommandCaller;
  /** Tool specs to choose from (default: generated from the manifest). */
  specs?: readonly ToolSpec[];
  /** Approvals its calls wait for, asked of the client's user through MCP elicitation when it supports it. */
  approvals?: ApprovalSource | undefined;
  /**
   * Recorded skills as `skill_<name>` tools (listed unless `--tools` names an exact list); the list
   * is re-read when their files change and clients are told with `notifications/tools/list_changed`.
   */
  skills?: SkillTools | undefined;
  /** The daemon's inbox: new annotations are announced (log notice) and hinted in the next tool response. */
  inbox?: InboxSource | undefined;
  /**
   * Told when a call that drives the browser comes, before it waits for anything, so a daemon still
   * loading launches Chromium now (DaemonLink.cueBrowser; default: the early daemon process's cue).
   */
  cueBrowser?: (() => void) | undefined;
  /**
   * What an error's hint says of a tool this server does not list (default: the argus-mcp option
   * that adds it, selectionReach), instead of offering the agent a tool it cannot call.
   */
  unlisted?: ((tool: string) => string) | undefined;
}

/** The manifest commands a skill tool and a skill save go through. */
const SKILL_RUN = 'skill.run';
const SKILL_CHANGES = new Set(['skill.save']);
/** The command argus_inbox runs: reading the inbox clears the pending hint. */
const INBOX_CONSUME = 'inbox.consume';

/**
 * The MCP server. It uses the SDK's low-level `Server` on purpose: tools are generated from the
 * manifest at run time and their JSON schemas are tuned for tokens, which `McpServer.registerTool`
 * would regenerate from zod.
 */
export function createMcpServer({
  options,
  caller,
  specs = allToolSpecs(),
  approvals,
  skills,
  inbox,
  cueBrowser = cueBrowserLaunch,
  unlisted,
}: McpServerOptions): Server {
  const tools = selectTools(specs, options);
  const byName = new Map(tools.map((spec) => [spec.name, spec]));
  const reach = unlisted ? new ToolReach(byName.keys(), unlisted) : selectionReach(byName.keys(), options);
  const listed = tools.map(mcpTool);
  const envelope = options.untrustedEnvelope ? new ContentEnvelope() : undefined;
  // an exact --tools list means exactly those tools
  const skillTools = options.tools?.length ? undefined : skills;
  const runSpec = specs.find((spec) => spec.command.name === SKILL_RUN);
  const validator = new LazyAjv();
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: skillTools ? { listChanged: true } : {}, ...(inbox ? { logging: {} } : {}) },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: validator,
    },
  );
  const notifier = inbox ? new InboxNotifier(server, inbox) : undefined;
  /** A tool's result with the inbox hint appended as its own text block (Argus's words, outside any page marking). */
  const withHint = (result: CallToolResult): CallToolResult => {
    // follow the inbox once a call reached the daemon (a typo starts none); not awaited
    if (!result.isError) void notifier?.ensure();
    const hint = notifier?.take();
    return hint ? { ...result, content: [...result.content, { type: 'text', text: hint }] } : result;
  };
  const announce = () => void server.sendToolListChanged().catch(() => undefined);
  skillTools?.watch(announce);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...listed, ...(skillTools?.tools() ?? [])] }));
  const elicitor = approvals ? new ApprovalElicitor(server, approvals, caller, () => validator.load()) : undefined;
  // extra.signal fires on the client's notifications/cancelled (or when it goes): the command stops
  handleToolCalls(server, async (request, { signal }) => {
    const spec = byName.get(request.params.name);
    const skill = spec ? undefined : skillTools?.get(request.params.name);
    // a prestarted daemon still loading launches Chromium now, not once the approval stream and this
    // call have waited for it to be up (cueBrowser; nothing once it is up)
    const command = spec?.command.name ?? (skill ? SKILL_RUN : undefined);
    if (command && drivesBrowser(command)) cueBrowser();
    if (skill && runSpec) {
      await elicitor?.ensure();
      // the daemon reads the file again and is the authority on its scope and parameters
      const input = { name: skill.name, params: request.params.arguments ?? {}, start: skill.data.startUrl !== null };
      return withHint(mcpResult(await runTool(runSpec, input, { caller, envelope, signal, reach })));
    }
    if (!spec) {
      const known = [...byName.keys(), ...(skillTools?.tools().map((tool) => tool.name) ?? [])];
      const text = `error[invalid_input]: Unknown tool ${request.params.name}. Available: ${known.join(', ')}.`;
      return { isError: true, content: [{ type: 'text', text }] };
    }
    await elicitor?.ensure();
    const outcome = await runTool(spec, request.params.arguments, { caller, envelope, signal, reach });
    // this agent saved a skill: its tool is there at once, not only when the file watcher fires
    if (outcome.ok && SKILL_CHANGES.has(spec.command.name) && skillTools?.refresh()) announce();
    if (outcome.ok && spec.command.name === INBOX_CONSUME) notifier?.consumed();
    return withHint(mcpResult(outcome));
  });
  return server;
}

type ToolCallHandler = (request: CallToolRequest, extra: { signal: AbortSignal }) => Promise<CallToolResult>;

/**
 * Serves tools/call through the SDK's base `Protocol` handler, which validates each request once
 * against CallToolRequestSchema. `Server.setRequestHandler` wraps a tools/call handler to parse the
 * request again and then the result (for task-augmented calls, which this server does not offer):
 * ~0.1 ms of zod per call in a fresh server, the largest single item of a small snapshot's cost in
 * its first fifty calls (CPU profile, issue 16). Results are built by mcpResult, typed as
 * CallToolResult, and a client's SDK validates what it receives.
 */
function handleToolCalls(server: Server, handler: ToolCallHandler): void {
  const register = Protocol.prototype.setRequestHandler as (
    this: Server,
    schema: typeof CallToolRequestSchema,
    handler: ToolCallHandler,
  ) => void;
  register.call(server, CallToolRequestSchema, handler);
}

/**
 * The SDK's Ajv validator (it checks a client's elicitation answers, and nothing else in a server),
 * loaded and made before the first elicitation (`load`, awaited by the approval elicitor): Ajv with
 * its formats and URI parser is ~190 KB of code, which the server compiled, and the SDK's default
 * built, before its first `initialize` answer (issue 16).
 */
export class LazyAjv implements jsonSchemaValidator {
  private ajv: AjvJsonSchemaValidator | undefined;
  private loading: Promise<void> | undefined;

  load(): Promise<void> {
    return (this.loading ??= import('@modelcontextprotocol/sdk/validation/ajv').then(({ AjvJsonSchemaValidator }) => {
      this.ajv = new AjvJsonSchemaValidator();
    }));
  }

  getValidator<T>(schema: JsonSchemaType) {
    if (!this.ajv) throw new Error('The JSON Schema validator is not loaded: await load() before an elicitation.');
    return this.ajv.getValidator<T>(schema);
  }
}
