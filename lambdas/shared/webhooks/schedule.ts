// The webhook retry schedule: seconds to wait after failed delivery attempt 1, 2, … (Stripe-like backoff over about
// 8.6 hours); the attempt after the last delay is the last one, so attempts = delays + 1. Plain data: read by the
// manifest (the delivery queue's maxReceiveCount) and matched by WEBHOOK_RETRY_SCHEDULE_S's default (webhooks/config.ts). Both services use it.
export const DEFAULT_RETRY_SCHEDULE_S: readonly number[] = [60, 300, 1800, 7200, 21600];
