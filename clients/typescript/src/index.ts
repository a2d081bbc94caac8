// voz-client: typed clients of the Narration and Documents APIs (ESM, fetch only). README: clients/typescript.
export * from './errors';
export { Transport, newIdempotencyKey, type ClientOptions, type RequestOptions } from './http';
export * from './narration';
export * from './documents';
export * from './webhooks';
