export * from './client.js';
export * from './connect.js';
export * from './errors.js';
export * from './state.js';
export * from './node-fetch.js';
/** Reading refs out of snapshot text: `findRef(snapshot.text, 'Sign up')` -> `e12`. */
export { findRef, refsIn, refsInLine, type RefToken } from '@argus/protocol/snapshot-refs';
