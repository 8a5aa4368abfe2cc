type Output = Record<string, unknown>;

interface ExtensionView {
  state: string;
  relayUrl: string | null;
  connected: boolean;
  nodeId: string | null;
  tabs: number;
  pendingPairings: number;
  lastError: string | null;
}

interface PendingView {
  code: string;
  nodeId: string;
  origin: string | null;
  fromExtension: boolean;
  fingerprint: string;
  expiresInMs: number;
}

/** Node ids are chosen by the caller: print them clipped and without control characters. */
function clip(text: string, max: number): string {
  const clean = [...text].map((char) => (/[\p{Cc}\p{Cf}]/u.test(char) ? '?' : char)).join('');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** One pending pairing request: code, who asks (origin or "local process"), fingerprint, node id. */
function pendingLine(request: PendingView): string {
  const from = request.fromExtension
    ? `extension ${request.origin ?? ''}`
    : `LOCAL PROCESS (no extension origin${request.origin ? `: ${clip(request.origin, 60)}` : ''})`;
  return `pending ${request.code}  from ${from}  fingerprint ${request.fingerprint}  node ${clip(request.nodeId, 40)}  expires in ${Math.round(request.expiresInMs / 1000)} s`;
}

/** One line on the extension relay and the extension connected to it (status, connect, pair). */
export function extensionLine(extension: ExtensionView | undefined): string {
  if (!extension || extension.state === 'relay_stopped')
    return 'relay not started (`argus connect --extension` starts it)';
  const where = `relay ${extension.relayUrl}`;
  if (extension.connected) return `connected (node ${extension.nodeId ?? '?'}, ${extension.tabs} tabs) via ${where}`;
  const error = extension.lastError ? `; last error: ${extension.lastError}` : '';
  if (extension.pendingPairings > 0)
    return `waiting for pair approval (${extension.pendingPairings} pending: \`argus pair\`), ${where}${error}`;
  return `not connected: open the extension popup and connect it to ${extension.relayUrl}${error}`;
}

export const sessionRenderers: Record<string, (output: Output) => string> = {
  'session.connect': (output) =>
    [
      `mode      ${output.mode}${output.switched ? ` (was ${output.previousMode})` : ''}${output.cdpUrl ? ` ${output.cdpUrl}` : ''}`,
      `extension ${extensionLine(output.extension as ExtensionView)}`,
    ].join('\n'),
  'session.pair': (output) => {
    const pending = output.pending as PendingView[];
    const local = pending.filter((request) => !request.fromExtension).length;
    return [
      ...(output.approved ? [`approved ${output.approved}`] : []),
      ...(pending.length ? pending.map(pendingLine) : output.approved ? [] : ['no pending pairing requests']),
      ...(pending.length ? ['approve only the code your extension popup shows, with the same node id'] : []),
      ...(local
        ? [
            `${local} request(s) came from local processes, not from a browser extension: do not approve them unless you started them`,
          ]
        : []),
      `extension ${extensionLine(output.extension as ExtensionView)}`,
    ].join('\n');
  },
};
