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
  /** The request body's schema: the one the handler validates with, declared beside the route spec. */
  body?: { schema: z.ZodType; contentTypes: string[] };
  responses: Record<number, ResponseDoc>;
  /** Optional Bearer key (free tier without it). */
  bearer?: 'optional' | 'required';
}
