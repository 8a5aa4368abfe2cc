export * from './client.js';
export * from './connect.js';
export * from './errors.js';
export * from './state.js';
export * from './node-fetch.js';
