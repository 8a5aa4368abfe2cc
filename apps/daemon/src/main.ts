import { runDaemonProcess } from './process.js';

/**
 * Entry of the bare daemon process: everything but MCP on the tunnel listener (the plugin owns MCP;
 * `@argus/plugin/daemon-main` is this plus the MCP endpoint, and is what the CLI and plugin start).
 */
void runDaemonProcess();
