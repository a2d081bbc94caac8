// Significance of an A/B difference: the two-proportion z-test with a pooled standard error, two-sided.
// The p-value is erfc(|z|/√2) from @stdlib/math-base-special-erfc: stdlib's port of the FreeBSD/Sun erfc is
// accurate to double precision far into the tail (a hand-written Abramowitz–Stegun approximation is only good to
// ~1e-7 absolute, which turns tiny p-values into noise), and the package is small, pure JS and well maintained.
import erfc from '@stdlib/math-base-special-erfc';

export const Z_TEST_METHOD =
  'two-proportion z-test, pooled standard error, two-sided, each variant vs control';

export interface ZTest {
  z: number;
  pValue: number;
}

/** P(|Z| ≥ |z|) for a standard normal Z. */
export function twoSidedPValue(z: number): number {
  return erfc(Math.abs(z) / Math.SQRT2);
}

/**
 * Compares conversion rate x2/n2 (variant) with x1/n1 (control).
 * z = (p2 − p1) / √(p(1 − p)(1/n1 + 1/n2)) with the pooled p = (x1 + x2)/(n1 + n2).
 * Undefined when a side has no exposures or more conversions than exposures (no valid test). When the pooled
 * rate is 0 or 1 both rates are equal and there is no evidence of a difference: z = 0, p = 1.
 */
export function twoProportionZTest(x1: number, n1: number, x2: number, n2: number): ZTest | undefined {
  if (n1 <= 0 || n2 <= 0 || x1 < 0 || x2 < 0 || x1 > n1 || x2 > n2) return undefined;
  const p = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
  if (se === 0) return { z: 0, pValue: 1 };
  const z = (x2 / n2 - x1 / n1) / se;
  return { z, pValue: twoSidedPValue(z) };
}
