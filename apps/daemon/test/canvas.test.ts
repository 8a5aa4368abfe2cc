import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOf, failure, useHarness } from './harness.js';

const h = useHarness();

const CARD = [
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: null,
    node: {
      id: 'card',
      kind: 'frame',
      rect: { x: 40, y: 40, width: 400, height: 240 },
      style: { backgroundColor: '#fff' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'card',
    node: { id: 'title', kind: 'text', props: { text: 'Hello' } },
  },
];

/** The canvas through the daemon: documents stored under the workspace's .argus/canvas/. */
describe('canvas commands', () => {
  it('new, patch, undo, redo, show, list and rm; the file on disk follows every revision', async () => {
    const made = await h.client.canvas.new.mutate({ name: 'Landing page' });
    expect(made).toMatchObject({ id: 'landing-page', revision: 0, pages: 1, nodes: 0 });
    expect(made.path).toBe(join(h.workspace, '.argus', 'canvas', 'landing-page.json'));
    const patched = await h.client.canvas.patch.mutate({ doc: 'landing-page', ops: CARD, baseRevision: 0 });
    expect(patched).toMatchObject({ revision: 1, created: ['card', 'title'], ops: 2, undo: 1, redo: 0 });
    const onDisk = JSON.parse(readFileSync(made.path, 'utf8')) as { revision: number; pages: { nodes: unknown[] }[] };
    expect(onDisk.revision).toBe(1);
    expect(onDisk.pages[0]?.nodes).toHaveLength(2);

    const stale = await failure(
      h.client.canvas.patch.mutate({
        doc: 'landing-page',
        ops: [{ op: 'node.remove', nodeId: 'title' }],
        baseRevision: 0,
      }),
    );
    expect(stale.code).toBe('revision_conflict');
    expect(stale.details?.['revision']).toBe(1);

    const bad = await failure(
      h.client.canvas.patch.mutate({
        doc: 'landing-page',
        ops: [
          { op: 'node.update', nodeId: 'title', changes: { 'props.text': 'x' } },
          { op: 'node.reparent', nodeId: 'card', parentId: 'title' },
        ],
      }),
    );
    expect(bad.code).toBe('invalid_patch');
    expect(bad.details?.['opIndex']).toBe(1);
    const shown = await h.client.canvas.show.query({ doc: 'landing-page' });
    expect(shown.document).toMatchObject({ revision: 1 });
    expect(JSON.stringify(shown.document)).toContain('"text":"Hello"');

    expect(await h.client.canvas.undo.mutate({ doc: 'landing-page' })).toMatchObject({ revision: 2, undo: 0, redo: 1 });
    expect(JSON.parse(readFileSync(made.path, 'utf8'))).toMatchObject({ revision: 2, pages: [{ nodes: [] }] });
    expect(await codeOf(h.client.canvas.undo.mutate({ doc: 'landing-page' }))).toBe('history_empty');
    expect(await h.client.canvas.redo.mutate({ doc: 'landing-page' })).toMatchObject({ revision: 3, undo: 1, redo: 0 });

    const listed = await h.client.canvas.list.query({});
    expect(listed.documents).toEqual([
      expect.objectContaining({ id: 'landing-page', name: 'Landing page', revision: 3, nodes: 2 }),
    ]);
    expect(await codeOf(h.client.canvas.new.mutate({ name: 'again', id: 'landing-page' }))).toBe('file_exists');
    expect(await h.client.canvas.rm.mutate({ doc: 'landing-page' })).toEqual({ id: 'landing-page', removed: true });
    expect(await codeOf(h.client.canvas.show.query({ doc: 'landing-page' }))).toBe('canvas_not_found');
    expect((await h.client.canvas.list.query({})).documents).toEqual([]);
  });

  it('save writes the document and load brings it back identical; a tampered file is refused', async () => {
    await h.client.canvas.new.mutate({ name: 'Card', id: 'card' });
    await h.client.canvas.patch.mutate({
      doc: 'card',
      ops: [...CARD, { op: 'token.set', path: 'color.bg', value: '#fff', mode: 'light' }],
    });
    const saved = await h.client.canvas.save.mutate({ doc: 'card', path: join(h.workspace, 'card.json') });
    const original = (await h.client.canvas.show.query({ doc: 'card' })).document;
    expect(JSON.parse(readFileSync(saved.path, 'utf8'))).toEqual(original);
    expect(await codeOf(h.client.canvas.save.mutate({ doc: 'card', path: join(h.workspace, 'card.json') }))).toBe(
      'file_exists',
    );
    expect(await codeOf(h.client.canvas.load.mutate({ path: saved.path }))).toBe('file_exists');
    const loaded = await h.client.canvas.load.mutate({ path: saved.path, id: 'card-copy' });
    expect(loaded).toMatchObject({ id: 'card-copy', revision: 1, nodes: 2 });
    expect((await h.client.canvas.show.query({ doc: 'card-copy' })).document).toEqual({ ...original, id: 'card-copy' });

    const tampered = JSON.parse(readFileSync(saved.path, 'utf8')) as {
      pages: { nodes: { parentId: string | null }[] }[];
    };
    tampered.pages[0]!.nodes[1]!.parentId = null;
    writeFileSync(join(h.workspace, 'bad.json'), JSON.stringify(tampered));
    expect(await codeOf(h.client.canvas.load.mutate({ path: join(h.workspace, 'bad.json'), id: 'bad' }))).toBe(
      'invalid_input',
    );
    expect(await codeOf(h.client.canvas.load.mutate({ path: '/etc/passwd', id: 'pw' }))).toBe('path_forbidden');
    expect(await codeOf(h.client.canvas.save.mutate({ doc: 'card', path: '/etc/argus-card.json' }))).toBe(
      'path_forbidden',
    );
  });
});

describe('canvas lint', () => {
  it('names the node of each finding; a missing page is refused', async () => {
    await h.client.canvas.new.mutate({ name: 'Lint me', id: 'lint-me' });
    await h.client.canvas.patch.mutate({
      doc: 'lint-me',
      ops: [
        ...CARD,
        { op: 'node.update', nodeId: 'title', changes: { 'style.color': '#aaa' } },
        {
          op: 'node.insert',
          pageId: 'page-1',
          parentId: 'card',
          node: {
            id: 'hero',
            kind: 'image',
            rect: { x: 0, y: 0, width: 500, height: 100 },
            props: { src: '/hero.png' },
          },
        },
      ],
    });
    const result = await h.client.canvas.lint.query({ doc: 'lint-me' });
    expect(result).toMatchObject({ doc: 'lint-me', revision: 1, errors: 2, warnings: 1 });
    expect(result.findings.map((finding) => `${finding.rule} ${finding.nodeId}`).sort()).toEqual([
      'contrast title',
      'image-alt hero',
      'overflow hero',
    ]);
    expect(await codeOf(h.client.canvas.lint.query({ doc: 'lint-me', page: 'nope' }))).toBe('invalid_input');
    expect(await codeOf(h.client.canvas.lint.query({ doc: 'no-such-doc' }))).toBe('canvas_not_found');
  });
});

/** Inserts of `count` frames, each inside the one before. */
function chain(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => ({
    op: 'node.insert',
    pageId: 'page-1',
    parentId: index === 0 ? null : `f${index - 1}`,
    node: { id: `f${index}`, kind: 'frame' },
  }));
}

describe('canvas limits and replacements', () => {
  it('a chain nested past 256 levels is invalid_patch; a stored file that deep is listed as unreadable, and refused by load', async () => {
    await h.client.canvas.new.mutate({ name: 'Deep', id: 'deep' });
    const refused = await failure(h.client.canvas.patch.mutate({ doc: 'deep', ops: chain(5000) }));
    expect(refused.code).toBe('invalid_patch');
    expect(refused.message).toContain('at most 256 levels');
    await h.client.canvas.patch.mutate({ doc: 'deep', ops: chain(256) });
    const exported = await h.client.canvas.export.mutate({ doc: 'deep', html: join(h.workspace, 'deep.html') });
    expect(exported.files).toHaveLength(1);

    // a file nested 3000 levels (written by hand: a patch cannot make one) in the documents' directory
    const saved = await h.client.canvas.save.mutate({ doc: 'deep', path: join(h.workspace, 'deep.json') });
    const deeper = JSON.parse(readFileSync(saved.path, 'utf8')) as {
      id: string;
      pages: { nodes: Record<string, unknown>[] }[];
    };
    const nodes = deeper.pages[0]!.nodes;
    const template = nodes[0]!;
    for (let index = 0; index < 3000; index++)
      nodes[index] = {
        ...template,
        id: `f${index}`,
        parentId: index === 0 ? null : `f${index - 1}`,
        childIds: index === 2999 ? [] : [`f${index + 1}`],
      };
    deeper.id = 'too-deep';
    writeFileSync(join(h.workspace, 'too-deep.json'), JSON.stringify(deeper));
    writeFileSync(join(h.workspace, '.argus', 'canvas', 'too-deep.json'), JSON.stringify(deeper));
    const listed = await h.client.canvas.list.query({});
    expect(listed.documents.map((doc) => doc.id)).toContain('deep');
    expect(listed.documents.map((doc) => doc.id)).not.toContain('too-deep');
    expect(listed.unreadable).toEqual([
      expect.objectContaining({ id: 'too-deep', error: expect.stringContaining('at most 256') }),
    ]);
    const load = await failure(h.client.canvas.load.mutate({ path: join(h.workspace, 'too-deep.json'), id: 'x' }));
    expect(load.code).toBe('invalid_input');
    expect(load.message).toContain('a page nests at most 256');
    // the unreadable one can still be removed
    expect(await h.client.canvas.rm.mutate({ doc: 'too-deep' })).toEqual({ id: 'too-deep', removed: true });
    expect((await h.client.canvas.list.query({})).unreadable).toEqual([]);
  });

  it('load --overwrite keeps the revision increasing, so a stale base revision is still a conflict', async () => {
    await h.client.canvas.new.mutate({ name: 'B', id: 'rb' });
    await h.client.canvas.patch.mutate({ doc: 'rb', ops: CARD });
    const saved = await h.client.canvas.save.mutate({ doc: 'rb', path: join(h.workspace, 'rb.json') });
    await h.client.canvas.new.mutate({ name: 'A', id: 'ra' });
    await h.client.canvas.patch.mutate({ doc: 'ra', ops: CARD.slice(0, 1) });
    await h.client.canvas.patch.mutate({ doc: 'ra', ops: [{ op: 'node.remove', nodeId: 'card' }] });
    const loaded = await h.client.canvas.load.mutate({ path: saved.path, id: 'ra', overwrite: true });
    expect(loaded).toMatchObject({ id: 'ra', revision: 3, nodes: 2 });
    const stale = await failure(
      h.client.canvas.patch.mutate({ doc: 'ra', ops: [{ op: 'node.remove', nodeId: 'title' }], baseRevision: 1 }),
    );
    expect(stale.code).toBe('revision_conflict');
    // a file at a later revision than the one it replaces keeps its own
    await h.client.canvas.new.mutate({ name: 'C', id: 'rc' });
    expect(await h.client.canvas.load.mutate({ path: saved.path, id: 'rc', overwrite: true })).toMatchObject({
      revision: 1,
    });
  });

  it('export to the same file twice is refused up front and writes nothing', async () => {
    await h.client.canvas.new.mutate({ name: 'Same', id: 'same' });
    await h.client.canvas.patch.mutate({ doc: 'same', ops: CARD });
    const target = join(h.workspace, 'same.x');
    for (const overwrite of [false, true]) {
      const error = await failure(h.client.canvas.export.mutate({ doc: 'same', html: target, tsx: target, overwrite }));
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain('--html and --tsx both name');
      expect(existsSync(target)).toBe(false);
    }
  });

  it('each reply of concurrent undos carries the undo/redo counts of its own revision', async () => {
    await h.client.canvas.new.mutate({ name: 'Many', id: 'many' });
    for (let index = 0; index < 10; index++)
      await h.client.canvas.patch.mutate({
        doc: 'many',
        ops: [{ op: 'token.set', path: `t.n${index}`, value: String(index) }],
      });
    const replies = await Promise.all(Array.from({ length: 10 }, () => h.client.canvas.undo.mutate({ doc: 'many' })));
    // revision 10 + k is the k-th undo: k batches undone, 10 - k left
    for (const reply of replies) {
      const k = reply.revision - 10;
      expect(reply, JSON.stringify(replies)).toMatchObject({ undo: 10 - k, redo: k });
    }
  });

  it('an unknown --mode is refused by export, lint and open, naming the modes; accents leave ids readable', async () => {
    const made = await h.client.canvas.new.mutate({ name: 'Card ✨ ünïcödé' });
    expect(made.id).toBe('card-unicode');
    await h.client.canvas.patch.mutate({
      doc: made.id,
      ops: [...CARD, { op: 'token.set', path: 'color.bg', value: '#fff', mode: 'dark' }],
    });
    const html = join(h.workspace, 'modes.html');
    for (const refused of [
      failure(h.client.canvas.export.mutate({ doc: made.id, html, mode: 'nosuchmode' })),
      failure(h.client.canvas.lint.query({ doc: made.id, mode: 'nosuchmode' })),
      failure(h.client.canvas.open.mutate({ doc: made.id, mode: 'nosuchmode' })),
    ]) {
      const error = await refused;
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain('has a mode "nosuchmode". Modes: dark.');
    }
    expect(existsSync(html)).toBe(false);
    expect((await h.client.canvas.lint.query({ doc: made.id, mode: 'dark' })).errors).toBe(0);
  });
});
