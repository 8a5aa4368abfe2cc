import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ArgusError } from '@argus/protocol/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from './mcp-server.js';
import type { CommandCaller } from './run-tool.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function connect(
  caller: CommandCaller,
  options: { profile?: 'core' | 'full'; tools?: string[]; untrustedEnvelope?: boolean } = {},
) {
  const server = createMcpServer({
    options: {
      profile: options.profile ?? 'core',
      tools: options.tools,
      untrustedEnvelope: options.untrustedEnvelope ?? true,
    },
    caller,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'unit', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

const idle: CommandCaller = { call: async () => ({}) };

describe('MCP server (in memory, fake daemon)', () => {
  it('lists the selected tools with schemas, and sends short instructions', async () => {
    const client = await connect(idle, { tools: ['snapshot', 'click'] });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['argus_click', 'argus_snapshot']);
    expect(tools[1]).toMatchObject({ annotations: { readOnlyHint: true }, inputSchema: { type: 'object' } });
    expect(client.getInstructions()).toMatch(/argus_snapshot/);
  });

  it('returns text plus structuredContent, isError for failures, and refuses unknown tools', async () => {
    const client = await connect({
      async call(command, input) {
        if ((input as { target?: string }).target === 'e404')
          throw new ArgusError('ref_not_found', 'No ref e404 in the last snapshot.');
        return command.name === 'tabs.list'
          ? { tabs: [{ id: 't1', index: 1, shortId: 't1', url: 'about:blank', title: '', active: true }] }
          : {};
      },
    });
    const tabs = await client.callTool({ name: 'argus_tabs', arguments: {} });
    expect(tabs.isError).toBeFalsy();
    // tab titles are page text: between the session's markers, the notice in this first wrapped reply
    const listed = '[{"id":"t1","index":1,"shortId":"t1","url":"about:blank","title":"","active":true}]';
    const nonce = /<<page ([0-9a-f]{12})>>/.exec(JSON.stringify(tabs.content))?.[1];
    expect(tabs.structuredContent).toEqual({ tabs: `<<page ${nonce}>>\n${listed}\n<</page ${nonce}>>` });
    expect(tabs.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          new RegExp(
            `^<<page ${nonce}>>\n.*not instructions.*\n\\* 1  t1  \\(untitled\\)  about:blank\n<</page ${nonce}>>$`,
          ),
        ),
      },
    ]);
    const failed = await client.callTool({ name: 'argus_click', arguments: { target: 'e404' } });
    expect(failed).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'error[ref_not_found]: No ref e404 in the last snapshot.' }],
    });
    const hidden = await client.callTool({ name: 'argus_drag', arguments: { target: 'e1' } });
    expect(hidden).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^error\[invalid_input\]: Unknown tool argus_drag/) }],
    });
  });

  it('still refuses a malformed tools/call (validated once, by the SDK) without calling the daemon', async () => {
    let calls = 0;
    const client = await connect({
      async call() {
        calls += 1;
        return {};
      },
    });
    // the client's own callTool cannot send these: a raw request can
    const raw = (params: unknown) =>
      client.request({ method: 'tools/call', params: params as { name: string } }, CallToolResultSchema);
    // (the SDK answers a request its schema refuses as an internal error naming the field, as before)
    for (const params of [{ arguments: {} }, { name: 42 }])
      await expect(raw(params)).rejects.toMatchObject({ code: ErrorCode.InternalError, message: /"name"/ });
    expect(calls).toBe(0);
    // and a well-formed call reaches the daemon
    await client.callTool({ name: 'argus_back', arguments: {} });
    expect(calls).toBe(1);
  });

  it("hands the client's cancellation to the daemon call as an aborted signal", async () => {
    let seen: AbortSignal | undefined;
    const client = await connect({
      // a wait the daemon would hold for its whole timeout unless told to stop
      call: (_command, _input, options) =>
        new Promise((_resolve, reject) => {
          seen = options?.signal;
          seen?.addEventListener('abort', () => reject(new ArgusError('cancelled', 'stopped')));
        }),
    });
    const cancel = new AbortController();
    const call = client.callTool({ name: 'argus_wait', arguments: { text: 'never' } }, undefined, {
      signal: cancel.signal,
    });
    await expect.poll(() => seen).toBeDefined();
    expect(seen?.aborted).toBe(false);
    cancel.abort('the agent moved on');
    await expect(call).rejects.toThrow(/moved on/);
    // the SDK sent notifications/cancelled; the server's handler aborted the daemon call's signal
    await expect.poll(() => seen?.aborted).toBe(true);
  });

  it('never offers a tool the profile lacks in an error hint: it says which option adds it', async () => {
    const client = await connect({
      async call() {
        throw new ArgusError(
          'timeout',
          'A download did not finish within 500 ms (none started). Retry with a longer --timeout-ms, or check `argus downloads`; `argus snapshot` shows the page.',
        );
      },
    });
    const failed = await client.callTool({ name: 'argus_wait', arguments: { download: true } });
    const text = (failed.content as Array<{ text: string }>)[0]!.text;
    expect(text).not.toContain('`argus_downloads');
    expect(text).toContain(
      "check `argus downloads` (a CLI command; the tool argus_downloads is not in this server's core profile: starting argus-mcp with `--tools core,downloads` or `--profile full` adds it)",
    );
    // a tool the profile has is still offered as the call
    expect(text).toContain('`argus_snapshot` shows the page');
  });
});
