// Narration's completion webhook events (use-cases/webhooks.ts delivers them through lambdas/shared/webhooks).
export type AudioEventType = 'audio.completed' | 'audio.failed';
export const AUDIO_EVENT_TYPES: readonly AudioEventType[] = ['audio.completed', 'audio.failed'];
