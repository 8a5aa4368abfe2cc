/** Browser-safe wire definitions shared by the relay and the extension (no node imports here). */
export * from './envelopes.js';
export * from './commands.js';
