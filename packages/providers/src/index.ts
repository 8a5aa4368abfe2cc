export * from './address-guard.js';
export * from './provider-error.js';
export * from './http-client.js';
export * from './resilience.js';
export * from './extract.js';
export * from './markdown.js';
export * from './shell-detect.js';
export * from './fetch-page.js';
