/**
 * Scores another tool computed are metrics named `score:NAME` everywhere: in the outcomes' columns, the summary,
 * the tests, fail-on and floors. These three functions are the one place that spelling lives.
 */

export function scoreMetric(name: string): string {
  return `score:${name}`;
}

export function isScoreMetric(metric: string): boolean {
  return metric.startsWith('score:');
}

/** The score's name in a `score:NAME` metric or gate. */
export function scoreNameOf(metric: string): string {
  return metric.slice('score:'.length);
}
