// Bugs the fuzzer found in code this suite does not own, reported to the owners with the seed and the request.
// Requests that would hit one are skipped (fc.pre) so the rest of the suite keeps its power; once the owner has
// fixed it, delete the entry and the fuzzer covers those requests again.
import type { GenRequest } from './arbitraries';

export interface KnownIssue {
  id: string;
  /** Where the fix belongs. */
  owner: string;
  what: string;
  /** True for requests that would hit it. */
  hits(g: GenRequest): boolean;
}

export const KNOWN_ISSUES: KnownIssue[] = [];

export function knownIssue(g: GenRequest): KnownIssue | undefined {
  return KNOWN_ISSUES.find((k) => k.hits(g));
}
