// Partition-key prefix of webhook endpoint items in a service's accounts table. Plain data (route specs import it to
// narrow IAM grants with itemPrefixes, so it must not pull the webhook code into their bundles).
export const WEBHOOK_ITEM_PREFIX = 'webhook#';
