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

/** One line on the extension relay and the extension connected to it (status, connect, pair). */
export function extensionLine(extension: ExtensionView | undefined): string {
  if (!extension || extension.state === 'relay_stopped') return 'relay not started (`argus connect --extension` starts it)';
  const where = `relay ${extension.relayUrl}`;
  if (extension.connected) return `connected (node ${extension.nodeId ?? '?'}, ${extension.tabs} tabs) via ${where}`;
  const error = extension.lastError ? `; last error: ${extension.lastError}` : '';
  if (extension.pendingPairings > 0) return `waiting for pair approval (${extension.pendingPairings} pending: \`argus pair\`), ${where}${error}`;
  return `not connected: open the extension popup and connect it to ${extension.relayUrl}${error}`;
}

export const sessionRenderers: Record<string, (output: Output) => string> = {
  'session.connect': (output) =>
    [
      `mode      ${output.mode}${output.switched ? ` (was ${output.previousMode})` : ''}${output.cdpUrl ? ` ${output.cdpUrl}` : ''}`,
      `extension ${extensionLine(output.extension as ExtensionView)}`,
    ].join('\n'),
  'session.pair': (output) => {
    const pending = output.pending as Array<{ code: string; nodeId: string; expiresInMs: number }>;
    return [
      ...(output.approved ? [`approved ${output.approved}`] : []),
      ...(pending.length ? pending.map((request) => `pending ${request.code}  node ${request.nodeId}  expires in ${Math.round(request.expiresInMs / 1000)} s`) : output.approved ? [] : ['no pending pairing requests']),
      `extension ${extensionLine(output.extension as ExtensionView)}`,
    ].join('\n');
  },
};
