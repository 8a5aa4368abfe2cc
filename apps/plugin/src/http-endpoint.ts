import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpHttpEndpoint, TunnelSession } from '@argus/daemon';
import { HttpCancels } from './http-cancels.js';
import { createMcpServer } from './mcp-server.js';
import { withoutFields } from './profiles.js';
import { allToolSpecs } from './tool-specs.js';

/** Fields a shared token may never use (files on the daemon's machine): left out of its tool schemas. */
const FILE_FIELDS = ['path', 'file', 'files', 'prefix', 'download'];

/**
 * MCP over Streamable HTTP for the daemon's tunnel listener (`/mcp`). Stateless: every POST gets a
 * fresh server and transport, so nothing outlives a request and a revoked or expired token stops at
 * its next request (the daemon authenticates each one). Tools are those of the token's allow-list,
 * generated from the manifest like the stdio server's; every call runs as the token through the
 * daemon's router (allow-list, file policy, own tabs).
 *
 * A call the agent abandons is cancelled at the daemon, as on stdio: by its `notifications/cancelled`
 * (routed to the POST that carries the call, HttpCancels) or by dropping the POST. With no session a
 * dropped POST's answer could never reach the client, so its close is the call's end (the transport's
 * close aborts its handlers' signals).
 */
export function createMcpHttpEndpoint(): McpHttpEndpoint {
  const specs = allToolSpecs();
  const cancels = new HttpCancels();
  return {
    async handle(req: IncomingMessage, res: ServerResponse, session: TunnelSession): Promise<void> {
      if (req.method !== 'POST') {
        // stateless: no standalone SSE stream to open (GET) and no session to end (DELETE)
        res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'Method not allowed: POST JSON-RPC to /mcp.' },
            id: null,
          }),
        );
        return;
      }
      const allowed = specs
        .filter((spec) => session.commands.includes(spec.command.name))
        .map((spec) => withoutFields(spec, FILE_FIELDS));
      const server = createMcpServer({
        options: { profile: 'full', tools: undefined, untrustedEnvelope: true },
        caller: { call: (command, input, call) => session.call(command.name, input, call?.signal) },
        specs: allowed,
        unlisted: () => "not allowed for this shared token: ask the daemon's owner for a token that allows it",
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      cancels.follow(session.id, transport, res);
      await transport.handleRequest(req, res);
    },
  };
}
