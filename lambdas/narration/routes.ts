// The narration service's route manifest: read by lib/narration-stack.ts and bin/local.ts.
import type { ServiceManifest } from '../shared/manifest';

const MiB = 1024 * 1024;

export const narrationManifest: ServiceManifest = {
  service: 'narration',
  routes: [
    {
      id: 'Voices',
      method: 'GET',
      path: '/voices',
      handler: 'lambdas/narration/handlers/voices.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: {},
    },
    {
      id: 'ConvertText',
      method: 'POST',
      path: '/convert/text',
      handler: 'lambdas/narration/handlers/convert-text.ts',
      // Short texts are synthesized inline: memory buys CPU for the encoder.
      memoryMb: 1024,
      timeoutS: 29,
      // 100,000 characters escaped as JSON \u sequences or %XX form fields stay under 2 MiB.
      maxBodyBytes: 2 * MiB,
      access: {
        tables: { audio: 'rw', quotas: 'rw', keys: 'r' },
        bucket: 'rw',
        sendJobs: true,
        speech: true,
      },
    },
    {
      id: 'ConvertUrl',
      method: 'POST',
      path: '/convert/url',
      handler: 'lambdas/narration/handlers/convert-url.ts',
      // Fetch + readability + (short articles) inline synthesis.
      memoryMb: 1024,
      timeoutS: 29,
      maxBodyBytes: 16 * 1024,
      access: {
        tables: { audio: 'rw', quotas: 'rw', keys: 'r' },
        bucket: 'rw',
        sendJobs: true,
        speech: true,
      },
    },
    {
      id: 'DemoTry',
      method: 'POST',
      path: '/demo/try',
      handler: 'lambdas/narration/handlers/demo-try.ts',
      memoryMb: 1024,
      timeoutS: 15,
      maxBodyBytes: 16 * 1024,
      // sendJobs only matters if SYNC_MAX_CHARS is ever set below the demo's 500 characters.
      access: { tables: { audio: 'rw', quotas: 'rw' }, bucket: 'rw', sendJobs: true, speech: true },
    },
    {
      id: 'GetAudio',
      method: 'GET',
      path: '/audio/{audio_id}',
      handler: 'lambdas/narration/handlers/get-audio.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { tables: { audio: 'r' }, bucket: 'r' },
    },
    {
      id: 'Api',
      method: 'GET',
      path: '/api',
      handler: 'lambdas/narration/handlers/api.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: {},
    },
    {
      id: 'NotFound',
      method: 'ANY',
      path: '$default',
      handler: 'lambdas/narration/handlers/not-found.ts',
      memoryMb: 128,
      timeoutS: 3,
      access: {},
    },
  ],
  workers: [
    {
      id: 'Worker',
      handler: 'lambdas/narration/handlers/worker.ts',
      memoryMb: 2048,
      // 100,000 characters ≈ 2 h of speech: synthesis + encoding fits well inside 15 min.
      timeoutS: 900,
      tmpMb: 2048,
      access: { tables: { audio: 'rw' }, bucket: 'rw', speech: true },
    },
  ],
};
