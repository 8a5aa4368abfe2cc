import { launchBrowserEarly } from './early-launch.js';

/**
 * Entry of the bare daemon process: everything but MCP on the tunnel listener (the plugin owns MCP;
 * `@argus/plugin/daemon-main` is this plus the MCP endpoint, and is what the CLI and plugin start).
 * Chromium starts first; the daemon's modules load while it does.
 */
launchBrowserEarly();
const { runDaemonProcess } = await import('./process.js');
void runDaemonProcess();
