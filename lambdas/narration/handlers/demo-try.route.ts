// POST /demo/try: the route's spec, next to its handler (demo-try.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import { chars } from '../../shared/validation';
import { voiceField } from '../requests';
import type { RouteSpec } from '../../shared/manifest';

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
    sendTo: ['priority', 'standard'],
    speech: true,
  },
} satisfies RouteSpec;

// The request body (validated by the handler; /api documents it).
export const DEMO_MAX_CHARS = 500;

const lowerOrUndefined = (v: unknown) =>
  v === '' || v === null ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v;

export const DemoTryReq = z.object({
  text: chars(1, DEMO_MAX_CHARS),
  voice: voiceField,
  fmt: z.preprocess(lowerOrUndefined, z.string().optional()),
});
