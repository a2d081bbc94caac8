// The ten output formats of the contract (a template lists the ones it renders to). The documents service serves
// each with its Content-Type (lambdas/documents/core/formats.ts).

export const FORMATS = ['pdf', 'xlsx', 'csv', 'html', 'json', 'md', 'txt', 'png', 'docx', 'zip'] as const;
export type Format = (typeof FORMATS)[number];
