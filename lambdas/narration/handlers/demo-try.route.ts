// POST /demo/try: the route's spec, next to its handler (demo-try.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import { chars } from '../../shared/validation';
import { voiceField } from '../requests';
import type { RouteSpec } from '../../shared/manifest';
import { CONVERSION_PREFIXES } from '../bucket';
import { ConversionResult } from '../api/schemas';
import { RATE_HEADERS, common } from '../api/doc-parts';
// The request body (validated by the handler; /api documents it).
export const DEMO_MAX_CHARS = 500;

const lowerOrUndefined = (v: unknown) =>
  v === '' || v === null ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v;

export const DemoTryReq = z.object({
  text: chars(1, DEMO_MAX_CHARS),
  voice: voiceField,
  fmt: z.preprocess(lowerOrUndefined, z.string().optional()),
});

export const demoTryRoute = {
  id: 'DemoTry',
  method: 'POST',
  path: '/demo/try',
  handler: 'lambdas/narration/handlers/demo-try.ts',
  memoryMb: 1024,
  timeoutS: 15,
  // 500 characters, each escaped as a 12-byte surrogate pair in JSON at worst, plus the other fields.
  maxBodyBytes: 16 * 1024,
  // sendTo only matters if SYNC_MAX_CHARS is ever set below the demo's 500 characters.
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  access: {
    tables: { audio: 'rw', quotas: 'rw', growth: 'rw' },
    bucket: 'rw',
    bucketPrefixes: CONVERSION_PREFIXES,
    sendTo: ['priority', 'standard'],
    speech: true,
  },
  docs: {
    summary: 'Anonymous demo',
    tags: ['narration'],
    description:
      'Up to 500 characters, MP3 only, its own per-IP limit (10 per hour, 30 per day, fixed UTC windows) separate ' +
      'from the conversion allowance; demo audio expires after 1 day.',
    body: {
      schema: DemoTryReq,
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
      example: { text: 'Hola, ¿qué tal? Así suena Voz leyendo en español.', voice: 'es-ES-Lucia' },
    },
    responses: {
      200: { description: 'Audio ready', schema: ConversionResult, headers: RATE_HEADERS },
      ...common,
    },
  },
} satisfies RouteSpec;
