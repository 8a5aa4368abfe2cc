import { CanvasSession } from '@argus/canvas';
import { type ClientOptions, createArgusClient } from '@argus/client';
import { WebSocket } from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf, failure, useHarness } from './harness.js';

/**
 * Issue 18, several clients on one design document: every change reaches every subscriber as a Yjs
 * update (replicas converge with the daemon's document), a replica's own edit goes back through the
 * daemon, and an edit lease keeps the others' changes out until it ends.
 */

const h = useHarness();
const opened: Array<{ close(): void }> = [];
afterAll(() => {
  for (const handle of opened) handle.close();
});

function clientAs(name: string, extra: Partial<ClientOptions> = {}) {
  const handle = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: h.daemon.token, name, ...extra });
  opened.push(handle);
  return handle;
}

function wsClientAs(name: string, extra: Partial<ClientOptions> = {}) {
  return clientAs(name, { transport: 'ws', WebSocket: WebSocket as unknown as ClientOptions['WebSocket'], ...extra });
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

const textNode = (id: string) => ({
  op: 'node.insert',
  pageId: 'page-1',
  parentId: null,
  node: { id, kind: 'text', props: { text: id } },
});

interface Update {
  revision: number;
  kind: string;
  by: string | null;
  update: string;
  bytes: number;
  replica: string;
}

/** A live replica fed by `canvas.updates` over a client's WebSocket; `until` waits for a revision. */
function replicaOf(handle: ReturnType<typeof clientAs>, doc: string) {
  const seen: Update[] = [];
  let session: CanvasSession | undefined;
  const waiters: Array<() => void> = [];
  let ended = false;
  const subscription = handle.client.canvas.updates.subscribe(
    { doc },
    {
      onData: (event: Update) => {
        seen.push(event);
        if (event.kind === 'state' || event.kind === 'reset') {
          session?.destroy();
          session = CanvasSession.fromUpdate(bytes(event.update));
        } else if (event.kind !== 'removed') session?.applyUpdate(bytes(event.update));
        for (const wake of waiters.splice(0)) wake();
      },
      onComplete: () => {
        ended = true;
        for (const wake of waiters.splice(0)) wake();
      },
      onStopped: () => {
        ended = true;
        for (const wake of waiters.splice(0)) wake();
      },
    },
  );
  return {
    seen,
    get session(): CanvasSession {
      if (!session) throw new Error('no state yet');
      return session;
    },
    get ended() {
      return ended;
    },
    async until(test: () => boolean): Promise<void> {
      const deadline = Date.now() + 30_000;
      while (!test()) {
        if (Date.now() > deadline) throw new Error(`replica never got there (${seen.length} updates)`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 1_000);
        });
      }
    },
    stop: () => subscription.unsubscribe(),
  };
}

describe('canvas with several clients', () => {
  it('patches from two clients apply in order and both replicas converge with the document', async () => {
    await h.client.canvas.new.mutate({ name: 'Shared', id: 'shared' });
    const alice = wsClientAs('alice');
    const bob = wsClientAs('bob');
    const aliceReplica = replicaOf(alice, 'shared');
    const bobReplica = replicaOf(bob, 'shared');
    await aliceReplica.until(() => aliceReplica.seen.length > 0);
    await bobReplica.until(() => bobReplica.seen.length > 0);
    expect(aliceReplica.seen[0]).toMatchObject({ kind: 'state', revision: 0, by: null });

    // 20 batches each, sent at once and interleaved: every one lands, each on its own revision
    const sent = [];
    for (let i = 0; i < 20; i++) {
      sent.push(alice.client.canvas.patch.mutate({ doc: 'shared', ops: [textNode(`a${i}`)] }));
      sent.push(bob.client.canvas.patch.mutate({ doc: 'shared', ops: [textNode(`b${i}`)] }));
    }
    const revisions = (await Promise.all(sent)).map((outcome) => outcome.revision).sort((x, y) => x - y);
    expect(revisions).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));

    const shown = (await h.client.canvas.show.query({ doc: 'shared' })).document;
    for (const replica of [aliceReplica, bobReplica]) {
      await replica.until(() => replica.session.revision === 40);
      expect(replica.session.toJson()).toEqual(shown);
      const changes = replica.seen.slice(1);
      expect(changes).toHaveLength(40);
      expect(new Set(changes.map((change) => change.kind))).toEqual(new Set(['patch']));
      expect(new Set(changes.map((change) => change.by))).toEqual(new Set(['alice', 'bob']));
    }

    // undo takes back the last batch, whoever sent it; both replicas see it
    await bob.client.canvas.undo.mutate({ doc: 'shared' });
    await aliceReplica.until(() => aliceReplica.session.revision === 41);
    expect(aliceReplica.seen.at(-1)).toMatchObject({ kind: 'undo', by: 'bob' });
    expect(aliceReplica.session.toJson()).toEqual((await h.client.canvas.show.query({ doc: 'shared' })).document);
    aliceReplica.stop();
    bobReplica.stop();
  });

  it("a replica's own edit goes back through the daemon; a bad or orphaned update changes nothing", async () => {
    await h.client.canvas.new.mutate({ name: 'Replicated', id: 'replicated' });
    const alice = wsClientAs('alice');
    const bob = wsClientAs('bob');
    const mine = replicaOf(alice, 'replicated');
    const theirs = replicaOf(bob, 'replicated');
    await mine.until(() => mine.seen.length > 0);
    await theirs.until(() => theirs.seen.length > 0);

    // alice edits her replica locally (the same patch language), then sends what the daemon lacks
    const before = mine.session.stateVector();
    mine.session.patch([textNode('local'), { ...textNode('local-2'), index: 0 }]);
    const pushed = await alice.client.canvas.push.mutate({
      doc: 'replicated',
      update: b64(mine.session.encodeState(before)),
      replica: mine.seen[0]?.replica,
    });
    expect(pushed.revision).toBe(1);
    // pushes are the pusher's own history: not undoable through the daemon
    expect(pushed.undo).toBe(0);
    const shown = (await bob.client.canvas.show.query({ doc: 'replicated' })).document as {
      pages: { rootIds: string[] }[];
    };
    expect(shown.pages[0]?.rootIds).toEqual(['local-2', 'local']);
    await theirs.until(() => theirs.session.revision === 1);
    expect(theirs.seen.at(-1)).toMatchObject({ kind: 'push', by: 'alice' });
    expect(theirs.session.toJson()).toEqual(shown);
    // alice's own replica gets the new revision, not her structs back (Yjs would take them for a client-id clash)
    await mine.until(() => mine.session.revision === 1);
    const echo = mine.seen.at(-1);
    expect(echo).toMatchObject({ kind: 'push', by: 'alice' });
    expect(echo?.bytes).toBeLessThan(theirs.seen.at(-1)?.bytes ?? 0);
    expect(mine.session.toJson()).toEqual(shown);

    // an update built on a change the daemon never got is refused whole
    mine.session.patch([textNode('never-sent')]);
    const afterUnsent = mine.session.stateVector();
    mine.session.patch([textNode('orphan')]);
    const orphan = await failure(
      alice.client.canvas.push.mutate({ doc: 'replicated', update: b64(mine.session.encodeState(afterUnsent)) }),
    );
    expect(orphan.code).toBe('invalid_input');
    expect(orphan.message).toContain('canvas updates');

    // an update that would leave an inconsistent document (a node of an unknown kind) is refused
    const fresh = replicaOf(alice, 'replicated');
    await fresh.until(() => fresh.seen.length > 0);
    const vector = fresh.session.stateVector();
    type YMap = { get(key: string): unknown; set(key: string, value: unknown): void };
    const page = fresh.session.ydoc.getArray('pages').get(0) as YMap;
    (((page.get('nodes') as YMap).get('local') as YMap).set as YMap['set'])('kind', 'hologram');
    const invalid = await failure(
      alice.client.canvas.push.mutate({ doc: 'replicated', update: b64(fresh.session.encodeState(vector)) }),
    );
    expect(invalid.code).toBe('invalid_input');
    expect(invalid.message).toContain('not a canvas document');
    // bytes that are no update at all
    expect(await codeOf(alice.client.canvas.push.mutate({ doc: 'replicated', update: 'AAECAwQFBgc=' }))).toBe(
      'invalid_input',
    );
    const after = await h.client.canvas.show.query({ doc: 'replicated' });
    expect(after.document).toEqual(shown);
    mine.stop();
    theirs.stop();
    fresh.stop();
  });

  it("an edit lease keeps others' changes out (canvas_leased) until it is released; reads go on", async () => {
    await h.client.canvas.new.mutate({ name: 'Leased', id: 'leased' });
    const holder = clientAs('holder-bot');
    const taken = await holder.client.canvas.lease.mutate({ doc: 'leased', ttl: '30s' });
    expect(taken).toMatchObject({ doc: 'leased', holder: 'holder-bot', yours: true, renewed: false, ttlMs: 30_000 });

    const other = clientAs('other-bot');
    const refused = await failure(other.client.canvas.patch.mutate({ doc: 'leased', ops: [textNode('x')] }));
    expect(refused.code).toBe('canvas_leased');
    expect(refused.message).toContain('holder-bot');
    expect(refused.message).toContain('argus canvas release');
    expect(refused.details).toMatchObject({ doc: 'leased', holder: 'holder-bot', retryable: true });
    for (const change of [
      other.client.canvas.undo.mutate({ doc: 'leased' }),
      other.client.canvas.push.mutate({ doc: 'leased', update: 'AAAA' }),
      other.client.canvas.rm.mutate({ doc: 'leased' }),
      // without the id, even the holder's own name (or the operator's client) is refused
      clientAs('holder-bot').client.canvas.patch.mutate({ doc: 'leased', ops: [textNode('x')] }),
      h.client.canvas.patch.mutate({ doc: 'leased', ops: [textNode('x')] }),
    ])
      expect(await codeOf(change)).toBe('canvas_leased');
    // reads go on
    expect((await other.client.canvas.show.query({ doc: 'leased' })).document).toMatchObject({ revision: 0 });
    expect((await other.client.canvas.leases.query()).leases).toEqual([
      expect.objectContaining({ doc: 'leased', holder: 'holder-bot', yours: false }),
    ]);

    // the holder presents its id and edits
    const proven = clientAs('holder-bot', { lease: taken.lease });
    expect((await proven.client.canvas.patch.mutate({ doc: 'leased', ops: [textNode('mine')] })).revision).toBe(1);
    // a waiting client gets in once the lease is released
    const waiting = clientAs('waiter', { leaseWaitMs: 30_000 }).client.canvas.patch.mutate({
      doc: 'leased',
      ops: [textNode('after')],
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await proven.client.canvas.release.mutate({})).released).toEqual(['leased']);
    expect((await waiting).revision).toBe(2);
    expect((await other.client.canvas.leases.query()).leases).toEqual([]);

    // unknown documents and ids are named
    expect(await codeOf(holder.client.canvas.lease.mutate({ doc: 'nope', ttl: '30s' }))).toBe('canvas_not_found');
    const gone = await failure(holder.client.canvas.release.mutate({ lease: taken.lease }));
    expect(gone.code).toBe('lease_not_found');
    expect(gone.message).toContain('argus canvas leases');
  });

  it('a lease taken over a live WebSocket is held by it and ends when it closes; rm ends the update stream', async () => {
    await h.client.canvas.new.mutate({ name: 'Socket', id: 'socket' });
    // a replica client: its subscription keeps its socket open (an idle client socket closes at once)
    const holder = wsClientAs('socket-bot');
    const own = replicaOf(holder, 'socket');
    await own.until(() => own.seen.length > 0);
    await holder.client.canvas.lease.mutate({ doc: 'socket', ttl: '60s' });
    // the socket proves it: no id needed on it
    expect((await holder.client.canvas.patch.mutate({ doc: 'socket', ops: [textNode('s')] })).revision).toBe(1);
    const watcher = replicaOf(wsClientAs('watcher'), 'socket');
    await watcher.until(() => watcher.seen.length > 0);
    expect(await codeOf(h.client.canvas.rm.mutate({ doc: 'socket' }))).toBe('canvas_leased');
    const waiting = clientAs('remover', { leaseWaitMs: 30_000 }).client.canvas.rm.mutate({ doc: 'socket' });
    // the daemon ends the socket's leases when it sees it close, and the waiting rm goes ahead
    holder.close();
    expect(await waiting).toMatchObject({ removed: true });
    await watcher.until(() => watcher.ended);
    expect(watcher.seen.at(-1)).toMatchObject({ kind: 'removed', revision: 1 });
  });
});
