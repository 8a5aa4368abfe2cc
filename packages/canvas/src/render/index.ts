export * from './sanitize.js';
export * from './tree.js';
export * from './emit.js';
