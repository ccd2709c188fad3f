/** Renders rows as left-aligned text columns (numbers right-aligned), two spaces apart. */
export function textTable(rows: readonly (readonly string[])[], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  const numeric = /^[-+−]?[\d.]+%?$|^\d+\/\d+$|^\[.*\]$|^—$|^$/;
  // A column is right-aligned when every cell below the header is a number.
  const rightAligned = widths.map((_, i) => rows.slice(1).every((row) => numeric.test(row[i] ?? '')));
  return rows
    .map((row) =>
      indent +
      row
        .map((cell, i) => {
          const pad = (widths[i] ?? 0) - [...cell].length;
          return i > 0 && rightAligned[i] ? ' '.repeat(pad) + cell : cell + ' '.repeat(pad);
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A value to 3 decimals, or an em dash when undefined. */
export function fixed3(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(3);
}
