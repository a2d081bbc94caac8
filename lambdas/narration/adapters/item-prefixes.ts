// Partition-key prefixes of the narration service's items in the accounts table (next to billing's acct#, evt#,
// email#, purchase#, pickup#). The manifest narrows IAM grants to them (`access.itemPrefixes`,
// dynamodb:LeadingKeys), so the lexicon routes cannot touch billing items.
export const LEXICON_ITEM_PREFIX = 'lexicons#';
