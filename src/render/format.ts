/** Number formats shared by the terminal report and the PR comment. */
import { grouped } from '../core/grouped.js';

/** A p-value to 4 decimals, or in scientific notation below 0.0001. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined) return '';
  return p < 0.0001 ? p.toExponential(1) : p.toFixed(4);
}

/** A signed difference with a true minus sign, to 3 decimals. */
export function formatDelta(delta: number): string {
  const text = Math.abs(delta).toFixed(3);
  return delta < 0 && text !== '0.000' ? `−${text}` : delta > 0 && text !== '0.000' ? `+${text}` : text;
}

/** "about 405", "more than 1,000,000", or null when there is nothing to detect. */
export function formatRequiredN(n: number | null): string | null {
  if (n === null || !Number.isFinite(n)) return null;
  return n > 1_000_000 ? 'more than 1,000,000' : `about ${grouped(n)}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${grouped(count)} ${count === 1 ? one : many}`;
}
