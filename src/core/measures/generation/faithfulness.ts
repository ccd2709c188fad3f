export type ClaimVerdict = 'SUPPORTED' | 'CONTRADICTED' | 'NOT_STATED';

/**
 * Faithfulness of one answer: SUPPORTED claims / all claims. An answer with no claims has no score
 * (undefined): it is left out of the mean and counted, never scored 0 or 1.
 */
export function faithfulness(claims: readonly { verdict: ClaimVerdict }[]): number | undefined {
  if (claims.length === 0) return undefined;
  let supported = 0;
  for (const claim of claims) if (claim.verdict === 'SUPPORTED') supported++;
  return supported / claims.length;
}
