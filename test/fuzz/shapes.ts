// The types the fuzz generators share: a route's documented shape, the running world's facts, a generated request.
import type fc from 'fast-check';

export type JsonSchema = Record<string, unknown>;

/** What a route's bodies and parameters look like, when documented. */
export interface RouteShape {
  /** Request body schema (JSON Schema). */
  body?: JsonSchema;
  /** Content types the body is documented for. */
  contentTypes?: string[];
  /** Documented query parameter names. */
  query?: string[];
  /** Whole valid bodies (documents: a template's sample request, caller HTML). */
  seeds?: fc.Arbitrary<unknown>;
}

/** Facts of the running services the generators draw from. */
export interface World {
  /** Known-good values by parameter or field name: voice, slug, plan, experiment, audio_id, url, … */
  known: Record<string, string[]>;
  /** Authorization values that are valid (a paid key). */
  validAuthorization: string[];
  /** Valid values of other credential headers (a dashboard token). */
  validHeaders: Record<string, string[]>;
  /** Signs a webhook payload (Stripe-Signature). */
  sign?: (payload: string) => string;
  /** Small files for multipart bodies (valid and broken PDFs). */
  files: Buffer[];
  /** A loopback URL that counts connections: hostile HTML points there, never outside. */
  sentinelUrl: string;
}

export interface GenRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  chunked: boolean;
  /** How the body was made (for failure messages). */
  kind: string;
}
