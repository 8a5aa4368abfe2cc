import type { Plugin } from '@opencode-ai/plugin';
import { DaemonLink } from './daemon-link.js';
import { openCodeTools } from './opencode-tools.js';
import { type Profile, isProfile } from './profiles.js';

function stringList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string')
    return value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  return undefined;
}

/**
 * The OpenCode plugin: the same manifest-generated tools as the MCP server, calling this project's
 * Argus daemon. Options (opencode.json `"plugin": [["@argus/plugin/opencode", { ... }]]`):
 * `profile` (core | full), `tools` (list), `untrustedEnvelope` (default true).
 *
 * OpenCode calls every export of a plugin module as a plugin, so this module exports only this.
 */
export const ArgusPlugin: Plugin = async ({ directory }, options = {}) => {
  const link = new DaemonLink({ cwd: directory, session: process.env.ARGUS_SESSION || undefined });
  const profile = typeof options.profile === 'string' && isProfile(options.profile) ? options.profile : undefined;
  const tools = openCodeTools({
    caller: link,
    profile:
      profile ??
      (isProfile(process.env.ARGUS_MCP_PROFILE ?? '') ? (process.env.ARGUS_MCP_PROFILE as Profile) : undefined),
    tools: stringList(options.tools) ?? stringList(process.env.ARGUS_MCP_TOOLS),
    untrustedEnvelope: options.untrustedEnvelope !== false,
  });
  return {
    tool: tools,
    dispose: () => link.close(),
  };
};
