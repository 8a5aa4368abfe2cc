import { describe, expect, it } from 'vitest';
import { hostsDaemon, hostsDaemonFromArgv } from './hosted-daemon.js';

describe('whether argus-mcp hosts the daemon', () => {
  it('does by default, not with --keep-browser or ARGUS_MCP_DAEMON=process', () => {
    expect(hostsDaemon(false, {})).toBe(true);
    expect(hostsDaemon(true, {})).toBe(false);
    expect(hostsDaemon(false, { ARGUS_MCP_DAEMON: 'process' })).toBe(false);
    expect(hostsDaemon(false, { ARGUS_MCP_DAEMON: 'in-process' })).toBe(true);
  });

  it("the entry's reading of raw arguments agrees with the options' (flag or ARGUS_MCP_KEEP_BROWSER)", () => {
    expect(hostsDaemonFromArgv(['--profile', 'core'], {})).toBe(true);
    expect(hostsDaemonFromArgv(['--keep-browser'], {})).toBe(false);
    expect(hostsDaemonFromArgv([], { ARGUS_MCP_KEEP_BROWSER: 'true' })).toBe(false);
    expect(hostsDaemonFromArgv([], { ARGUS_MCP_KEEP_BROWSER: '0' })).toBe(true);
    expect(hostsDaemonFromArgv([], { ARGUS_MCP_DAEMON: ' process ' })).toBe(false);
  });
});
