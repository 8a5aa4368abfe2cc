import { type ClientOptions, type Connection, connectToDaemon } from '@argus/client';
import { ArgusError } from '@argus/protocol/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

// A lease id as people pass it back: pasted from `argus tab lease` with the newline after it, or
// listed with spaces around the commas. Before, the typed client sent it as the header as it was, and
// node:http refused a header with a newline: `error[internal]: Invalid character in header content`.
const cli = useCli('argus-lease-input-');
const clients: Connection[] = [];
let tab = '';
let lease = '';

async function script(option: ClientOptions['lease']): Promise<Connection> {
  const connection = await connectToDaemon({ stateDir: cli.stateDir, cwd: cli.workspace, lease: option });
  clients.push(connection);
  return connection;
}

/** `argus <args>` with ARGUS_LEASE set to `value`. */
async function withLeaseEnv(value: string, ...args: string[]) {
  process.env.ARGUS_LEASE = value;
  try {
    return await cli.argus(...args);
  } finally {
    delete process.env.ARGUS_LEASE;
  }
}

beforeAll(async () => {
  const opened = await cli.argus('--json', 'newtab', cli.server.urlFor('/nav-a.html'));
  expect(opened.code, opened.stderr).toBe(0);
  tab = (JSON.parse(opened.stdout) as { id: string }).id;
  const taken = await cli.argus('tab', 'lease', '--tab', tab, '--ttl', '5m');
  expect(taken.code, taken.stderr).toBe(0);
  // the id exactly as a shell captures the printed line, newline included
  lease = `${/^lease (lease_\S+)$/m.exec(taken.stdout)?.[1]}\n`;
  expect(lease).toMatch(/^lease_[\w-]+\n$/);
  // without the lease a write is refused: what the writes below prove they present
  const refused = await cli.argus('eval', '--tab', tab, '1');
  expect(refused.stderr).toMatch(/error\[tab_leased\]/);
});

afterAll(() => {
  for (const connection of clients) connection.close();
});

describe('a lease id with whitespace around it', () => {
  it('the typed client trims it, as a string, a list or a function, and its writes hold the lease', async () => {
    const id = lease.trim();
    for (const option of [lease, [` ${id} `], () => [`\t${id}\r\n`], ` ${id} ,\n${id} `]) {
      const connection = await script(option);
      expect(await connection.call('page.eval', 'mutation', { tab, js: '1 + 1' })).toMatchObject({ value: 2 });
      expect((await connection.client.page.eval.mutate({ tab, js: '2 + 2' })).value).toBe(4);
    }
  });

  it('the CLI trims it in --lease and ARGUS_LEASE', async () => {
    const id = lease.trim();
    const flag = await cli.argus('--lease', ` ${id} , ${id}\n`, 'eval', '--tab', tab, '1 + 1');
    expect(flag.code, flag.stderr).toBe(0);
    const env = await withLeaseEnv(lease, 'eval', '--tab', tab, '1 + 1');
    expect(env.code, env.stderr).toBe(0);
  });
});

describe('a malformed lease id', () => {
  const inner = () => `${lease.trim()}\nx`;

  it('the CLI refuses it with invalid_input naming --lease / ARGUS_LEASE and the form, never an internal error', async () => {
    for (const result of [
      await withLeaseEnv(inner(), 'eval', '--tab', tab, '1'),
      await cli.argus('--lease', inner(), 'eval', '--tab', tab, '1'),
      await cli.argus('--lease', `${lease.trim()},`, 'eval', '--tab', tab, '1'),
    ]) {
      expect(result.stderr).toMatch(/^error\[invalid_input\]: .*--lease \/ ARGUS_LEASE.*lease_…/m);
      expect(result.code).toBe(2);
    }
  });

  it('the typed client refuses it with invalid_input before sending, on every path', async () => {
    let bad = false;
    const connection = await script(() => [bad ? inner() : lease]);
    bad = true;
    for (const attempt of [
      () => connection.call('page.eval', 'mutation', { tab, js: '1' }),
      () => connection.client.page.eval.mutate({ tab, js: '1' }),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(ArgusError);
      expect(error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/ARGUS_LEASE.*lease_…/) });
    }
    // a static one is read when the client is made
    await expect(script(inner())).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
