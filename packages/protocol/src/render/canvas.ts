import { dialogLines } from './effects.js';
import type { OutputOf, RenderersOf } from './types.js';

type Summary = { id: string; name: string; revision: number; pages: number; nodes: number; path: string };
type Revision = { id: string; revision: number; undo: number; redo: number };

const summaryLine = (doc: Summary) =>
  `${doc.id}  "${doc.name}"  rev ${doc.revision}  ${doc.pages} pages, ${doc.nodes} nodes`;
const revisionLine = (what: string, out: Revision) =>
  `${out.id}: ${what} -> revision ${out.revision} (undo ${out.undo}, redo ${out.redo})`;

type CanvasLease = OutputOf<'canvas.leases'>['leases'][number];
const canvasLeaseLine = (lease: CanvasLease) =>
  `${lease.doc}  held by ${lease.holder}${lease.yours ? ' (you)' : ''}  expires in ${Math.ceil(lease.expiresInMs / 1000)} s (${lease.expiresAt})`;

/** The design canvas: one line per document or change; `show` is the document itself. */
export const canvasRenderers: RenderersOf<'canvas'> = {
  'canvas.new': (output) => `${summaryLine(output)}\n${output.path}`,
  'canvas.list': (output) =>
    [
      ...output.documents.map(summaryLine),
      ...output.unreadable.map((doc) => `${doc.id}  UNREADABLE  ${doc.error}`),
    ].join('\n') || `(no documents in ${output.dir})`,
  'canvas.show': (output) => JSON.stringify(output.document, null, 2),
  'canvas.rm': (output) => `removed ${output.id}`,
  'canvas.save': (output) => `saved ${output.path} (${output.bytes} bytes)`,
  'canvas.load': (output) => `${summaryLine(output)}\n${output.path}`,
  'canvas.patch': (output) =>
    `${revisionLine(`${output.ops} ops applied`, output)}${output.created.length ? `\ncreated ${output.created.join(', ')}` : ''}`,
  'canvas.undo': (output) => revisionLine('undone', output),
  'canvas.redo': (output) => revisionLine('redone', output),
  'canvas.export': (output) =>
    output.files.map((file) => `${file.format}  ${file.path} (${file.bytes} bytes)`).join('\n'),
  'canvas.lint': (output) =>
    [
      `${output.doc} rev ${output.revision}: ${output.errors} error(s), ${output.warnings} warning(s)`,
      ...output.findings.map(
        (finding) =>
          `${finding.severity.padEnd(7)} ${finding.rule.padEnd(13)} ${finding.nodeId === null ? '(document)' : `${finding.nodeId} "${finding.nodeName ?? ''}"`}: ${finding.message}`,
      ),
    ].join('\n'),
  // then the dialogs since the previous reply, as node-of
  'canvas.import': (output) =>
    [
      `imported ${output.element} (${output.size}) as ${output.nodes} node(s) under ${output.root} in ${output.doc}, revision ${output.revision}`,
      ...(output.truncated ? ['[truncated: raise --max-nodes for the rest]'] : []),
      ...(output.skipped ? [`${output.skipped} hidden element(s) left out`] : []),
      ...dialogLines(output.dialogs),
    ].join('\n'),
  'canvas.open': (output) => `previewing ${output.doc} at revision ${output.revision} in tab ${output.tab}`,
  // one line, then the dialogs since the previous reply (as css and is)
  'canvas.nodeOf': (output) =>
    [
      output.node === null
        ? `${output.element}: no canvas node`
        : `${output.node}${output.doc === null ? '' : ` (${output.doc})`}  ${output.element}`,
      ...dialogLines(output.dialogs),
    ].join('\n'),
  'canvas.lease': (output) =>
    [
      `${output.renewed ? 'renewed' : 'leased'} ${output.doc} for ${Math.round(output.ttlMs / 1000)} s (renewed by each of your changes to it)`,
      `lease ${output.lease}`,
      `send it back with every change: export ARGUS_LEASE=${output.lease}  (or --lease ${output.lease})`,
    ].join('\n'),
  'canvas.release': (output) =>
    output.released.length ? `released the lease on ${output.released.join(', ')}` : 'no lease to release',
  'canvas.leases': (output) => output.leases.map(canvasLeaseLine).join('\n') || '(no leases)',
  'canvas.updates': (output) =>
    `${output.doc} rev ${output.revision}  ${output.kind}${output.by === null ? '' : ` by ${output.by}`}  ${output.bytes} bytes`,
  'canvas.push': (output) => revisionLine('update applied', output),
};
