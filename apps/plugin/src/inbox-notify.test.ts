import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxChange, InboxSource } from './inbox-notify.js';
import { createMcpServer } from './mcp-server.js';
import type { CommandCaller } from './run-tool.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A daemon inbox stand-in: the test pushes changes as `inbox.watch` would stream them. */
class FakeInbox implements InboxSource {
  private listener: ((change: InboxChange) => void) | undefined;
  watched = 0;
  unread = 0;
  async watchInbox(onChange: (change: InboxChange) => void): Promise<() => void> {
    this.watched++;
    this.listener = onChange;
    onChange({ unread: this.unread, added: 0, newest: null });
    return () => undefined;
  }
  arrive(count: number): void {
    this.unread += count;
    this.listener?.({ unread: this.unread, added: count, newest: 'abcd' });
  }
}

const caller: CommandCaller = {
  async call(command) {
    if (command.name === 'inbox.consume') return { items: [], remaining: 0 };
    return { tabs: [] };
  },
};

async function connect(inbox: FakeInbox) {
  const server = createMcpServer({
    options: { profile: 'core', tools: undefined, untrustedEnvelope: true },
    caller,
    inbox,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'unit', version: '0' });
  const notices: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    notices.push(String(notification.params.data));
  });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, notices };
}

const texts = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '');

describe('inbox notifications (SDK client, in memory)', () => {
  it('sends a log notice when annotations arrive and hints once in the next tool response', async () => {
    const inbox = new FakeInbox();
    const { client, notices } = await connect(inbox);
    expect(client.getServerCapabilities()?.logging).toEqual({});

    // a typo reaches no daemon: nothing is followed yet
    await client.callTool({ name: 'argus_tabs', arguments: { nope: 1 } });
    expect(inbox.watched).toBe(0);
    const first = await client.callTool({ name: 'argus_tabs', arguments: {} });
    expect(texts(first).some((text) => text.includes('annotation'))).toBe(false);
    expect(inbox.watched).toBe(1);

    inbox.arrive(1);
    await expect.poll(() => notices).toEqual(['1 new annotation from the user: argus_inbox to read']);
    const hinted = await client.callTool({ name: 'argus_tabs', arguments: {} });
    expect(texts(hinted).at(-1)).toBe('1 new annotation from the user: argus_inbox to read');
    // once: the following response has no hint
    const after = await client.callTool({ name: 'argus_tabs', arguments: {} });
    expect(texts(after).some((text) => text.includes('annotation'))).toBe(false);

    inbox.arrive(2);
    await expect.poll(() => notices.length).toBe(2);
    inbox.arrive(1);
    await expect.poll(() => notices.length).toBe(3);
    expect(texts(await client.callTool({ name: 'argus_tabs', arguments: {} })).at(-1)).toBe(
      '3 new annotations from the user: argus_inbox to read',
    );

    // reading the inbox clears what is pending
    inbox.arrive(1);
    await expect.poll(() => notices.length).toBe(4);
    const read = await client.callTool({ name: 'argus_inbox', arguments: {} });
    expect(texts(read).some((text) => text.includes('new annotation'))).toBe(false);
    expect(
      texts(await client.callTool({ name: 'argus_tabs', arguments: {} })).some((text) =>
        text.includes('new annotation'),
      ),
    ).toBe(false);
  });

  it('unread items waiting when the session starts following are hinted once', async () => {
    const inbox = new FakeInbox();
    inbox.unread = 2;
    const { client } = await connect(inbox);
    const hints: string[] = [];
    for (let i = 0; i < 3; i++)
      hints.push(
        ...texts(await client.callTool({ name: 'argus_tabs', arguments: {} })).filter((text) =>
          text.includes('annotation'),
        ),
      );
    expect(hints).toEqual(['2 new annotations from the user: argus_inbox to read']);
  });
});
