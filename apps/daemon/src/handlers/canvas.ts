import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CanvasSession, RenderOptions } from '@argus/canvas';
import { ArgusError, manifest, type Handlers } from '@argus/protocol';
import { confinePath } from '@argus/security';
import { CANVAS_IMPORT, CANVAS_NODE } from '@argus/snapshot';
import { importOps } from '../canvas-import.js';
import { canvas, withCanvas } from '../canvas-lib.js';
import { CanvasPreviews } from '../canvas-preview.js';
import { CanvasStore } from '../canvas-store.js';
import { bytesOf, type CanvasUpdate, type CanvasUpdateKind, type PushOrigin } from '../canvas-sync.js';
import { eventStream } from '../event-stream.js';
import { claimFor, currentLeaseClaim } from '../lease-claims.js';
import { ttlMs } from './leases.js';
import { callOnElement } from '../page-eval.js';
import { withDialogs } from '../capture-entries.js';
import { outputTarget, writeTarget } from '../output-path.js';
import type { Services } from '../services.js';

/** Files larger than this are not read as documents (a 500-node page is ~200 KB). */
const MAX_DOC_BYTES = 20 * 1024 * 1024;

export function canvasHandlers(
  services: Services,
  store = new CanvasStore(join(services.stateDir, 'canvas')),
  previews = new CanvasPreviews(services.manager),
): Handlers['canvas'] {
  const sync = services.canvasSync;
  /** Who changes a document now (informational, in the update feed). */
  const by = () => currentLeaseClaim()?.name ?? null;
  /** A change may go ahead: the document is not leased by another client (or its lease ended while waiting). */
  const admit = (id: string, signal?: AbortSignal) => sync.admit(id, currentLeaseClaim(), signal);
  /** Writes the document, tells its subscribers and brings its previews up to date (bounded: a hung tab never holds a patch). */
  const changed = async (id: string, session: CanvasSession, kind: CanvasUpdateKind, origin?: PushOrigin) => {
    sync.changed(id, session, kind, by(), origin);
    await store.persist(id);
    await previews.refresh(id, session.toJson());
  };
  /** The reply of a change; read right after the change, before any await, so a concurrent change cannot skew the counts. */
  const revision = (id: string, session: CanvasSession, value: number) => ({
    id,
    revision: value,
    undo: session.undoDepth,
    redo: session.redoDepth,
  });
  /** Takes back (undo) or re-applies (redo) the document's last batch, as the caller. */
  const historyStep = async (doc: string, step: 'undo' | 'redo', signal: AbortSignal | undefined) => {
    await admit(doc, signal);
    const session = store.get(doc);
    const outcome = step === 'undo' ? session.undo() : session.redo();
    const reply = revision(doc, session, outcome.revision);
    await changed(doc, session, step);
    return reply;
  };
  return withCanvas(
    {
      new: async (input) => {
        const id = input.id ?? store.freeId(input.name);
        if (store.has(id)) {
          throw new ArgusError(
            'file_exists',
            `A design document "${id}" exists. Choose another --id, or \`argus canvas rm ${id}\` first.`,
            {
              details: { id },
            },
          );
        }
        return store.put(id, canvas().CanvasSession.create(id, input.name));
      },
      list: async () => ({ dir: store.dir, ...store.list() }),
      show: async (input) => ({ document: store.get(input.doc).toJson() }),
      lint: async (input) => {
        const doc = store.get(input.doc).toJson();
        if (input.page !== undefined) canvas().pageOf(doc, input.page);
        const findings = canvas().lintDocument(doc, { pageId: input.page, mode: input.mode });
        const errors = findings.filter((finding) => finding.severity === 'error').length;
        return { doc: doc.id, revision: doc.revision, errors, warnings: findings.length - errors, findings };
      },
      rm: async (input, ctx) => {
        await admit(input.doc, ctx.signal);
        // an unreadable file can still be removed (its stated revision, or 0)
        const revision = store.has(input.doc) ? store.revisionOf(input.doc) : 0;
        const removed = await store.remove(input.doc);
        // its preview tabs stop being previews: a later document with the same id is another document
        previews.end(input.doc);
        sync.removed(input.doc, revision, by());
        return { id: input.doc, removed };
      },
      save: async (input, ctx) => {
        const session = store.get(input.doc);
        const target = outputTarget(services, ctx, input.path, {
          stem: input.doc,
          ext: 'json',
          overwrite: input.overwrite,
        });
        const text = `${JSON.stringify(session.toJson(), null, 2)}\n`;
        await writeTarget(target, text);
        return { path: target.path, bytes: Buffer.byteLength(text) };
      },
      load: async (input, ctx) => {
        const path = confinePath(input.path, services.access.paths(ctx));
        const stat = statSync(path, { throwIfNoEntry: false });
        if (!stat?.isFile())
          throw new ArgusError('invalid_input', `${input.path} is not a file (resolved to ${path}).`);
        if (stat.size > MAX_DOC_BYTES)
          throw new ArgusError(
            'payload_too_large',
            `${path} is ${stat.size} bytes; a design document is at most ${MAX_DOC_BYTES}.`,
          );
        let raw: unknown;
        try {
          raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
        } catch (error) {
          throw new ArgusError('invalid_input', `${path} is not JSON (${(error as Error).message}).`);
        }
        const fileId = (raw as { id?: unknown } | null)?.id;
        const id = input.id ?? (typeof fileId === 'string' ? fileId : store.freeId('doc'));
        if (store.has(id)) await admit(id, ctx.signal);
        if (store.has(id) && !input.overwrite) {
          throw new ArgusError(
            'file_exists',
            `A design document "${id}" exists. Pass --overwrite to replace it, or --id to load it under another id.`,
            {
              details: { id },
            },
          );
        }
        // a replaced document's revision goes on from where it was, never back: a client that read an
        // earlier revision must get revision_conflict, not write over the replacement
        const previous = store.has(id) ? store.revisionOf(id) : undefined;
        const fileRevision = (raw as { revision?: unknown } | null)?.revision;
        const continued =
          previous !== undefined && typeof fileRevision === 'number'
            ? { revision: Math.max(fileRevision, previous + 1) }
            : {};
        const withId = raw && typeof raw === 'object' ? { ...raw, id, ...continued } : raw;
        const loaded = canvas().CanvasSession.fromJson(withId, path);
        const summary = await store.put(id, loaded);
        sync.replaced(id, loaded, by());
        await previews.refresh(id, loaded.toJson());
        return summary;
      },
      patch: async (input, ctx) => {
        await admit(input.doc, ctx.signal);
        const session = store.get(input.doc);
        const outcome = session.patch(input.ops, input.baseRevision);
        const reply = { ...revision(input.doc, session, outcome.revision), created: outcome.created, ops: outcome.ops };
        await changed(input.doc, session, 'patch');
        return reply;
      },
      undo: (input, ctx) => historyStep(input.doc, 'undo', ctx.signal),
      redo: (input, ctx) => historyStep(input.doc, 'redo', ctx.signal),
      push: async (input, ctx) => {
        await admit(input.doc, ctx.signal);
        const session = store.get(input.doc);
        const update = bytesOf(input.update);
        const outcome = session.push(update);
        const reply = revision(input.doc, session, outcome.revision);
        await changed(
          input.doc,
          session,
          'push',
          input.replica === undefined ? undefined : { replica: input.replica, update },
        );
        return reply;
      },
      async *updates(input, ctx) {
        const session = store.get(input.doc);
        const since = input.since === undefined ? undefined : bytesOf(input.since);
        yield* eventStream<CanvasUpdate>({
          signal: ctx.signal,
          // a replica that missed an update cannot converge: a consumer that far behind is ended, not skipped
          overflow: 'end',
          start: (push, end) => sync.subscribe(input.doc, session, since, push, end),
        });
      },
      lease: async (input, ctx) => {
        const ttl = ttlMs(input.ttl);
        store.get(input.doc); // canvas_not_found for a document that is not there
        await admit(input.doc, ctx.signal);
        const { tab, ...lease } = sync.leases.take(input.doc, claimFor(ctx, manifest.canvas.lease), ttl);
        return { doc: tab, ...lease };
      },
      release: async (input, ctx) => ({
        released: sync.leases.release(claimFor(ctx, manifest.canvas.release), input.lease),
      }),
      leases: async (_input, ctx) => ({
        leases: sync.leases
          .list(claimFor(ctx, manifest.canvas.leases))
          .map(({ tab, ...lease }) => ({ doc: tab, ...lease })),
      }),
      open: async (input) => {
        const document = store.get(input.doc).toJson();
        const options = renderOptions(input);
        const { tab } = await previews.open(input.doc, document, options);
        return { doc: input.doc, tab, revision: document.revision };
      },
      nodeOf: (input) =>
        services.manager.onTab(input.tab, async (page) => {
          const handle = await services.manager.engine(page).resolve(input.target);
          const node = await callOnElement(page, handle, CANVAS_NODE);
          // a read of the page: with the dialogs since the previous reply, as every other
          return withDialogs(page, { element: handle.label, node, doc: previews.docOf(page.id) ?? null });
        }),
      import: async (input, ctx) => {
        // --into names the document already: an --id beside it would be silently ignored
        if (input.into !== undefined && input.id !== undefined)
          throw new ArgusError(
            'invalid_input',
            `--into ${input.into} imports into that document; --id names a new one. Give one of them.`,
          );
        const [tab, read] = await services.manager.onTab(input.tab, async (page) => {
          const handle = await services.manager.engine(page).resolve(input.target);
          const drawn = await callOnElement(page, handle, CANVAS_IMPORT, input.maxNodes);
          return [page, { element: handle.label, ...drawn }] as const;
        });
        if (read.items.length === 0)
          throw new ArgusError('invalid_input', `${read.element} is hidden: there is nothing drawn to import.`);
        let session: CanvasSession;
        let docId: string;
        if (input.into !== undefined) {
          docId = input.into;
          await admit(docId, ctx.signal);
          session = store.get(docId);
        } else {
          docId = input.id ?? store.freeId(read.title || 'import');
          if (store.has(docId))
            throw new ArgusError(
              'file_exists',
              `A design document "${docId}" exists. Choose another --id, or pass --into ${docId}.`,
              {
                details: { id: docId },
              },
            );
          // stored only once the batch applied: a refused import leaves no empty document behind
          session = canvas().CanvasSession.create(docId, read.title || read.element);
        }
        const doc = session.toJson();
        const page = canvas().pageOf(doc, input.page);
        const taken = new Set(doc.pages.flatMap((candidate) => candidate.nodes.map((node) => node.id)));
        const plan = importOps(read, page.id, taken);
        const outcome = session.patch(plan.ops);
        if (input.into === undefined) await store.put(docId, session);
        else await changed(docId, session, 'import');
        const imported = {
          doc: docId,
          revision: outcome.revision,
          root: plan.root,
          nodes: plan.ops.length,
          truncated: read.truncated,
          skipped: read.skipped,
          element: read.element,
          size: plan.size,
        };
        // a read of the page: with the dialogs since the previous reply, taken once the import is
        // done (a refused one leaves them to the next reply)
        return withDialogs(tab, imported);
      },
      export: async (input, ctx) => {
        if (input.html === undefined && input.tsx === undefined)
          throw new ArgusError('invalid_input', 'Say where to write: --html <file>, --tsx <file>, or both.');
        const doc = store.get(input.doc).toJson();
        const options = renderOptions(input);
        const outputs: { format: 'html' | 'tsx'; path: string; text: string }[] = [];
        if (input.html !== undefined)
          outputs.push({ format: 'html', path: input.html, text: canvas().exportHtml(doc, options) });
        if (input.tsx !== undefined)
          outputs.push({ format: 'tsx', path: input.tsx, text: canvas().exportTsx(doc, options) });
        // every target resolved (and checked) before anything is written: a refusal writes nothing
        const targets = outputs.map((output) => ({
          ...output,
          target: outputTarget(services, ctx, output.path, {
            stem: input.doc,
            ext: output.format,
            overwrite: input.overwrite,
          }),
        }));
        const [first, second] = targets;
        if (first && second && first.target.path === second.target.path)
          throw new ArgusError(
            'invalid_input',
            `--html and --tsx both name ${first.target.path}: the second would replace the first. Give them different files. Nothing was written.`,
            { details: { path: first.target.path } },
          );
        const files = [];
        for (const { format, text, target } of targets) {
          await writeTarget(target, text);
          files.push({ format, path: target.path, bytes: Buffer.byteLength(text) });
        }
        return { files };
      },
    },
    manifest.canvas,
  );
}

/** The render options a command's page and mode fields ask for (the preview and the export). */
function renderOptions(input: { page?: string; mode?: string }): RenderOptions {
  return {
    ...(input.page === undefined ? {} : { pageId: input.page }),
    ...(input.mode === undefined ? {} : { mode: input.mode }),
  };
}
