// The bundle build's last step (tsup.config.ts) loads this entry to write the bundled MCP server's
// tool specs beside it, computed by the bundle's own copy of the manifest.
export { BUILT_TOOL_SPECS, writeBuiltToolSpecs } from './tool-specs.js';
