// Partition-key prefixes of the documents service's items in the accounts table (next to billing's acct#, evt#,
// email#, purchase#, pickup#; webhook endpoints are the platform's WEBHOOK_ITEM_PREFIX,
// lambdas/shared/webhooks/item-prefix.ts). The manifest (lambdas/documents/routes.ts) narrows IAM grants to them
// (`access.itemPrefixes`, dynamodb:LeadingKeys), so a function that handles jobs cannot touch billing items.
export const JOB_ITEM_PREFIX = 'docjob#';
/** The brand an account stored with PUT /v1/brand (one item per account: `brand#<owner>`). */
export const BRAND_ITEM_PREFIX = 'brand#';
