// The webhook settings every service with webhooks reads (spread into its config next to platformVars), and the
// callback policy built from them. WEBHOOK_URL_ALLOWLIST and WEBHOOK_DNS_STUB exist for local tests: inside Lambda
// (AWS_LAMBDA_FUNCTION_NAME is set by the runtime) they are ignored even if someone sets them.
import { isIP } from 'node:net';
import { z } from 'zod';
import { allowlist } from '../config';
import { allowlistFrom, stubResolver } from '../net/safe-fetch';
import type { WebhookPolicy } from './endpoints';

export const webhookVars = {
  /**
   * Seconds to wait after failed delivery attempt 1, 2, ...: comma-separated; the attempt after the last one is the
   * final one (then the message goes to the DLQ). The delivery queue's maxReceiveCount is this length + 1.
   */
  WEBHOOK_RETRY_SCHEDULE_S: z
    .string()
    .default('60,300,1800,7200,21600')
    .transform((v, ctx) => {
      const parts = v.split(',').map((p) => p.trim());
      const nums = parts.map(Number);
      if (!parts.length || nums.some((n, i) => !/^\d+$/.test(parts[i]!) || n > 43200)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'WEBHOOK_RETRY_SCHEDULE_S must be comma-separated whole seconds, each at most 43200 (12 h)',
        });
        return z.NEVER;
      }
      return nums;
    }),
  /** Whole webhook delivery attempt (connect, send, answer) must finish within this. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30000).default(10000),
  /** After POST /v1/webhook/rotate-secret, the previous secret keeps signing (a second v1=) for this long. */
  WEBHOOK_SECRET_OVERLAP_S: z.coerce.number().int().min(0).max(604800).default(86400),
  /**
   * Callback destinations exempt from the public-address and port rules, and the only ones that may use http://
   * (same syntax as URL_FETCH_ALLOWLIST). LOCAL TESTS ONLY: the stack never sets it and it is ignored inside Lambda.
   */
  WEBHOOK_URL_ALLOWLIST: allowlist('WEBHOOK_URL_ALLOWLIST'),
  /**
   * TESTS ONLY: resolve callback host names from this table instead of DNS (`name=ip|ip,name=ip`); names not
   * listed do not resolve. The addresses are still checked like DNS answers. Ignored inside Lambda.
   */
  WEBHOOK_DNS_STUB: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const table: Record<string, string[]> = {};
      for (const entry of v
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)) {
        const [name, addrs] = entry.split('=') as [string, string | undefined];
        const list = (addrs ?? '')
          .split('|')
          .map((a) => a.trim())
          .filter(Boolean);
        if (!name || !list.length || list.some((a) => !isIP(a))) {
          ctx.addIssue({ code: 'custom', message: `WEBHOOK_DNS_STUB entry '${entry}' is not name=ip[|ip]` });
          return z.NEVER;
        }
        table[name.toLowerCase()] = list;
      }
      return Object.keys(table).length ? table : undefined;
    }),
};

export interface WebhookConfig {
  WEBHOOK_URL_ALLOWLIST: string;
  WEBHOOK_DNS_STUB: Record<string, string[]> | undefined;
  WEBHOOK_TIMEOUT_MS: number;
}

/** The callback policy from config; the local-test settings are ignored inside Lambda. */
export function webhookPolicyFrom(
  cfg: WebhookConfig,
  env: Record<string, string | undefined> = process.env,
): WebhookPolicy {
  const inLambda = !!env.AWS_LAMBDA_FUNCTION_NAME;
  return {
    allowlist: inLambda ? [] : allowlistFrom(cfg.WEBHOOK_URL_ALLOWLIST),
    resolver: !inLambda && cfg.WEBHOOK_DNS_STUB ? stubResolver(cfg.WEBHOOK_DNS_STUB) : undefined,
    timeoutMs: cfg.WEBHOOK_TIMEOUT_MS,
  };
}
