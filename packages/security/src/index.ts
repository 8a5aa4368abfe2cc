export * from './tokens.js';
export * from './redact.js';
export * from './paths.js';
export * from './envelope.js';
export * from './scopes.js';
export * from './domain-policy.js';
export * from './cdp-policy.js';
