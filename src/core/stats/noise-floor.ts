/** The binomial probabilities P(X = 0..n) for X ~ Bin(n, p). */
function binomialPmf(n: number, p: number): Float64Array {
  const pmf = new Float64Array(n + 1);
  if (p <= 0) pmf[0] = 1;
  else if (p >= 1) pmf[n] = 1;
  else {
    // Recurrence P(k+1) = P(k)·(n−k)/(k+1)·p/(1−p), from P(0) = (1−p)^n in logs for large n.
    let log = n * Math.log1p(-p);
    const odds = Math.log(p) - Math.log1p(-p);
    for (let k = 0; k <= n; k++) {
      pmf[k] = Math.exp(log);
      log += Math.log(n - k) - Math.log(k + 1) + odds;
    }
  }
  return pmf;
}

/**
 * The chances that a question's pass rate over `headRuns` runs falls below, or rises above, its pass rate over
 * `baseRuns` runs when both are drawn with the same pass probability `p`: what run-to-run noise alone gives.
 */
export function noiseDiscordance(p: number, baseRuns: number, headRuns: number): { lower: number; higher: number } {
  const base = binomialPmf(baseRuns, p);
  const head = binomialPmf(headRuns, p);
  let lower = 0;
  let higher = 0;
  for (let b = 0; b <= baseRuns; b++) {
    for (let h = 0; h <= headRuns; h++) {
      const joint = base[b]! * head[h]!;
      // Cross-multiplied, so equal rates (2/4 and 1/2) compare equal.
      if (h * baseRuns < b * headRuns) lower += joint;
      else if (h * baseRuns > b * headRuns) higher += joint;
    }
  }
  return { lower, higher };
}
