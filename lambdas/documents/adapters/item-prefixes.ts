// Partition-key prefixes of the documents service's items in the accounts table (next to billing's acct#, evt#,
// email#, purchase#, pickup#). The manifest (lambdas/documents/routes.ts) narrows IAM grants to them
// (`access.itemPrefixes`, dynamodb:LeadingKeys), so a function that handles jobs cannot touch billing items.
export const JOB_ITEM_PREFIX = 'docjob#';
export { WEBHOOK_ITEM_PREFIX } from '../../shared/webhooks/item-prefix';
