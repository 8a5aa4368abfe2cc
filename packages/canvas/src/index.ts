export * from './schema.js';
export * from './ops.js';
export * from './apply.js';
export * from './integrity.js';
export * from './session.js';
export { readDocument } from './y-state.js';
export * from './render/index.js';
export * from './lint.js';
