/**
 * The chances that a question's pass rate falls, or rises, from base to head by run-to-run noise alone, given its
 * `basePasses` of `baseRuns` and `headPasses` of `headRuns`: the runs of both sides are pooled and dealt at random
 * between the sides in their sizes (hypergeometric), which is what "nothing changed" means when runs are
 * exchangeable. Given the pooled passes this is the unbiased estimate under no change, where plugging in base's
 * rate is not: a question whose pass probability is 0.8 passes all of 3 runs half the time, and its plug-in rate
 * of 1 would call it steady.
 *
 * A question whose outcome is the same in every run of each side (steady on both) counts 0: its runs give no
 * evidence of noise, and a deterministic change such as a lost document would otherwise count as noise.
 */
export function noiseDiscordance(basePasses: number, baseRuns: number, headPasses: number, headRuns: number): { lower: number; higher: number } {
  const steady = (passes: number, runs: number) => passes === 0 || passes === runs;
  if (steady(basePasses, baseRuns) && steady(headPasses, headRuns)) return { lower: 0, higher: 0 };
  const passes = basePasses + headPasses;
  const first = Math.max(0, passes - headRuns);
  const last = Math.min(baseRuns, passes);
  // log C(baseRuns, b) + log C(headRuns, passes − b) by the ratio of successive terms, normalised at the end.
  const logWeights: number[] = [];
  let log = 0;
  for (let b = first; b <= last; b++) {
    logWeights.push(log);
    log += Math.log(baseRuns - b) + Math.log(passes - b) - Math.log(b + 1) - Math.log(headRuns - passes + b + 1);
  }
  const top = Math.max(...logWeights);
  let total = 0;
  let lower = 0;
  let higher = 0;
  logWeights.forEach((logWeight, i) => {
    const b = first + i;
    const h = passes - b;
    const weight = Math.exp(logWeight - top);
    total += weight;
    // Cross-multiplied, so equal rates (2/4 and 1/2) compare equal.
    if (h * baseRuns < b * headRuns) lower += weight;
    else if (h * baseRuns > b * headRuns) higher += weight;
  });
  return { lower: lower / total, higher: higher / total };
}
