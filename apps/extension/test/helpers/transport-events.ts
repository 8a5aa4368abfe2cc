import type { CdpEvent, Transport } from '@argus/cdp';

/** Resolves with the first event matching; registered before the action that causes it. */
export function nextEvent(
  transport: Transport,
  method: string,
  predicate: (event: CdpEvent) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<CdpEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${method}`));
    }, timeoutMs);
    const off = transport.onEvent((event) => {
      if (event.method !== method || !predicate(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

export async function evaluate(transport: Transport, sessionId: string, expression: string): Promise<unknown> {
  const response = (await transport.send(
    'Runtime.evaluate',
    { expression, returnByValue: true, awaitPromise: true },
    sessionId,
  )) as {
    result: { value?: unknown };
    exceptionDetails?: { text: string };
  }; // Runtime.evaluate's documented result shape
  if (response.exceptionDetails) throw new Error(`evaluate failed: ${response.exceptionDetails.text}`);
  return response.result.value;
}
