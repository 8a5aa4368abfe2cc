// Library surface of @argus/plugin: the generated tool list and the pieces both adapters share.
export {
  ADAPTER_HIDDEN_FIELDS,
  allToolSpecs,
  inputSchemaFor,
  toolSpecFor,
  type JsonSchema,
  type ToolSpec,
} from './tool-specs.js';
export {
  CORE_HIDDEN_FIELDS,
  CORE_TOOLS,
  PROFILES,
  selectTools,
  withoutFields,
  type Profile,
  type ToolSelection,
} from './profiles.js';
export { DaemonLink, daemonEntry, type DaemonLinkOptions } from './daemon-link.js';
export { runTool, checkArguments, agentScreenshotInput, type CommandCaller, type ToolOutcome } from './run-tool.js';
export { createMcpServer, mcpTool, mcpResult, INSTRUCTIONS, SERVER_NAME, SERVER_VERSION } from './mcp-server.js';
export { parseOptions, USAGE, type PluginOptions } from './options.js';
export { openCodeTools, openCodeArgs } from './opencode-tools.js';
