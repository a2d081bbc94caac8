// DynamoDB table shapes, shared by the CDK stacks and the local runtime's emulator setup.
import type { TableId } from '../lambdas/shared/manifest';

export interface TableShape {
  partitionKey: string;
  /** Global secondary indexes (all string partition keys, projection ALL). */
  indexes?: { name: string; partitionKey: string }[];
  /** Env var the runtime reads the table name from. */
  envVar: string;
}

export const TABLES: Record<TableId, TableShape> = {
  audio: { partitionKey: 'audioId', envVar: 'AUDIO_TABLE' },
  quotas: { partitionKey: 'pk', envVar: 'QUOTAS_TABLE' },
  keys: {
    partitionKey: 'keyHash',
    envVar: 'KEYS_TABLE',
    indexes: [{ name: 'byEmail', partitionKey: 'email' }],
  },
  /** Billing: accounts, Stripe event ids (idempotency), one-time key pick-ups. Items keyed by prefixed `pk`. */
  accounts: { partitionKey: 'pk', envVar: 'ACCOUNTS_TABLE' },
  /** Growth: waitlist entries, A/B exposures and conversions, public stats counters. Items keyed by prefixed `pk`. */
  growth: { partitionKey: 'pk', envVar: 'GROWTH_TABLE' },
  /**
   * Narration's publisher feeds (`feed#<id>`), their articles (`art#<id>#<key>`) and listen counters
   * (`listen#<id>#<day>`). byOwner: an account's feeds; byPoll: active feeds only (sparse: paused feeds drop the
   * attribute), read by the scheduler; byFeed: a feed's articles (deleting a feed).
   */
  feeds: {
    partitionKey: 'pk',
    envVar: 'FEEDS_TABLE',
    indexes: [
      { name: 'byOwner', partitionKey: 'owner' },
      { name: 'byPoll', partitionKey: 'pollShard' },
      { name: 'byFeed', partitionKey: 'articleOf' },
    ],
  },
};

/** Attribute DynamoDB's TTL deletes expired items by (epoch seconds). */
export const TTL_ATTRIBUTE = 'expiresAt';
