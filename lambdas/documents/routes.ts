// The documents service's route manifest: read by lib/documents-stack.ts and bin/local.ts (port RENDER_PORT).
import type { ServiceManifest } from '../shared/manifest';

const MiB = 1024 * 1024;

export const documentsManifest: ServiceManifest = {
  service: 'documents',
  routes: [
    {
      id: 'Render',
      method: 'POST',
      path: '/v1/render',
      handler: 'lambdas/documents/handlers/render.ts',
      // Chromium: container image with the browser and fonts; memory buys CPU for layout.
      packaging: 'image',
      memoryMb: 2048,
      timeoutS: 29,
      maxBodyBytes: 2 * MiB,
      access: { tables: { quotas: 'rw', keys: 'r', growth: 'rw' }, bucket: 'rw' },
    },
    {
      id: 'TemplateSample',
      method: 'GET',
      path: '/templates/{slug}/sample.pdf',
      handler: 'lambdas/documents/handlers/template-sample.ts',
      packaging: 'image',
      memoryMb: 2048,
      timeoutS: 29,
      access: { bucket: 'rw' },
    },
    {
      id: 'Templates',
      method: 'GET',
      path: '/templates',
      handler: 'lambdas/documents/handlers/templates.ts',
      packaging: 'image',
      memoryMb: 512,
      timeoutS: 10,
      access: {},
    },
    {
      id: 'TemplateSource',
      method: 'GET',
      path: '/templates/{slug}/source',
      handler: 'lambdas/documents/handlers/template-source.ts',
      packaging: 'image',
      memoryMb: 256,
      timeoutS: 5,
      access: {},
    },
    {
      id: 'Pricing',
      method: 'GET',
      path: '/pricing',
      handler: 'lambdas/documents/handlers/pricing.ts',
      memoryMb: 128,
      timeoutS: 3,
      access: {},
    },
    {
      id: 'DocumentStats',
      method: 'GET',
      path: '/stats',
      handler: 'lambdas/documents/handlers/stats.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { tables: { growth: 'r' } },
    },
    {
      id: 'NotFound',
      method: 'ANY',
      path: '$default',
      handler: 'lambdas/documents/handlers/not-found.ts',
      memoryMb: 128,
      timeoutS: 3,
      access: {},
    },
  ],
  workers: [],
};
