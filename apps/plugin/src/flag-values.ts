/**
 * How a boolean flag or environment variable says yes or no. Its own module: argus-mcp's entry reads
 * ARGUS_MCP_KEEP_BROWSER (hostsDaemonFromArgv) before the options parser loads.
 */
export const YES = /^(1|true|yes|on)$/i;
export const NO = /^(0|false|no|off)$/i;
