export * from './engine.js';
export * from './searxng.js';
export * from './brave.js';
export * from './duckduckgo.js';
export * from './search.js';
