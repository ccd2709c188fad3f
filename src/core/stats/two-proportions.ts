import gammainc from '@stdlib/math-base-special-gammainc';
import { wilsonInterval } from './wilson.js';

/** Two independent proportions: `count1` of `n1` against `count2` of `n2`. */
export interface TwoProportions {
  readonly count1: number;
  readonly n1: number;
  readonly count2: number;
  readonly n2: number;
}

/**
 * Newcombe's hybrid score 95% interval for p1 − p2 (Newcombe 1998, method 10): built from each side's Wilson
 * interval, so it stays honest near 0 and 1 and with small samples, where the Wald interval does not.
 */
export function newcombeInterval({ count1, n1, count2, n2 }: TwoProportions): [number, number] {
  if (n1 === 0 || n2 === 0) return [-1, 1];
  const p1 = count1 / n1;
  const p2 = count2 / n2;
  const [l1, u1] = wilsonInterval(count1, n1);
  const [l2, u2] = wilsonInterval(count2, n2);
  const d = p1 - p2;
  return [d - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)];
}

/**
 * The pooled two-proportion z test of p1 = p2. `pValue` is two-sided (the upper tail of χ² with 1 df at z²);
 * `upperPValue` is one-sided, for the alternative p1 > p2. A zero spread (both sides all 0 or all 1) gives z = 0.
 */
export function twoProportionTest({ count1, n1, count2, n2 }: TwoProportions): { z: number; pValue: number; upperPValue: number } {
  if (n1 === 0 || n2 === 0) return { z: 0, pValue: 1, upperPValue: 1 };
  const pooled = (count1 + count2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const z = se === 0 ? 0 : (count1 / n1 - count2 / n2) / se;
  const pValue = z === 0 ? 1 : gammainc((z * z) / 2, 0.5, true, true);
  return { z, pValue, upperPValue: z > 0 ? pValue / 2 : 1 - pValue / 2 };
}
