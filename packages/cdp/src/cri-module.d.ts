// Minimal typing of the chrome-remote-interface surface we use (the package ships no types).
declare module 'chrome-remote-interface' {
  interface CriEventMessage {
    method: string;
    params: unknown;
    sessionId?: string;
  }
  interface CriClient {
    send(method: string, params?: object, sessionId?: string): Promise<unknown>;
    on(event: 'event', listener: (message: CriEventMessage) => void): void;
    on(event: 'disconnect', listener: () => void): void;
    close(): Promise<void>;
  }
  interface CriOptions {
    target: string;
    local?: boolean;
    /** The protocol descriptor the client builds its per-domain helpers from (skips fetching one). */
    protocol?: { domains: unknown[] };
  }
  function CDP(options: CriOptions): Promise<CriClient>;
  export default CDP;
}
