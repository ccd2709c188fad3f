import { inertText } from './untrusted.js';

/** Longest cell shown; ids and questions come from users' files. */
const CELL_MAX_CHARS = 120;

/**
 * Renders rows as left-aligned text columns (numbers right-aligned), two spaces apart. Every cell is made one
 * line (control characters and newlines become spaces): cells carry user text, and a line of theirs must never
 * become a line of ours, such as a `::error::` workflow command in a runner's log.
 */
export function textTable(cells: readonly (readonly string[])[], indent = '  '): string {
  const rows = cells.map((row) => row.map((cell) => inertText(cell, CELL_MAX_CHARS)));
  const lengths = rows.map((row) => row.map(codePoints));
  const widths: number[] = [];
  for (const row of lengths) row.forEach((length, i) => (widths[i] = Math.max(widths[i] ?? 0, length)));
  // U+2212 is the minus sign, U+2014 the dash of an empty cell (escaped: scripts/build.mjs keeps the bundle ASCII).
  const numeric = /^[-+\u2212]?[\d.]+%?$|^\d+\/\d+$|^\[.*\]$|^\u2014$|^$/;
  // A column is right-aligned when every cell below the header is a number.
  const rightAligned = widths.map((_, i) => rows.slice(1).every((row) => numeric.test(row[i] ?? '')));
  return rows
    .map(
      (row, r) =>
        indent +
        row
          .map((cell, i) => {
            const pad = (widths[i] ?? 0) - lengths[r]![i]!;
            return i > 0 && rightAligned[i] ? ' '.repeat(pad) + cell : cell + ' '.repeat(pad);
          })
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

/** The code points of a string, as `[...value].length` counts them (a lone surrogate is one), without the array. */
export function codePoints(value: string): number {
  let count = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** A value to 3 decimals, or an em dash when undefined. */
export function fixed3(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(3);
}
