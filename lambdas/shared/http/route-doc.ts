// What GET /api says about a route: the `docs` of its RouteSpec (../manifest.ts), read by ./openapi.ts. Types only.
import type { z } from 'zod';

/** One documented response of a route. */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Media type of `schema` (default application/json). */
  contentType?: string;
  /** Several media types sharing `schema` (e.g. the binary formats of one endpoint); overrides contentType. */
  contentTypes?: string[];
  headers?: Record<string, string>;
}

export interface ParamDoc {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description: string;
  schema?: Record<string, unknown>;
}

/** What GET /api says about one manifest route: the `docs` of its RouteSpec. */
export interface RouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  params?: ParamDoc[];
  /**
   * The request body's schema (the one its handler validates with, declared beside the route spec). `example`:
   * a real body that the route accepts as it is (GET /api pre-fills "Probar" with it, and its snippets send it;
   * test/unit/api-examples.test.ts validates each against the route's schema). It goes with the first content type;
   * a multipart body's example holds its fields, the file aside; one from a heavy module may be loaded lazily.
   */
  body?: {
    schema: z.ZodType;
    contentTypes: string[];
    example: Record<string, unknown> | (() => Promise<Record<string, unknown>>);
  };
  responses: Record<number, ResponseDoc>;
  /** Optional Bearer key (free tier without it). */
  bearer?: 'optional' | 'required';
  /** With `bearer: 'optional'`: the code samples still send the key (what most callers of the route have). */
  sampleKey?: boolean;
}
