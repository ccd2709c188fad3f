import type { ReadProgress } from '../../sources/lines.js';
import type { CommandContext } from './context.js';
import { grouped } from '../../core/grouped.js';

/** How often a status line may be redrawn. */
const REDRAW_MS = 100;

/**
 * One status line on stderr, redrawn in place at most every 100 ms (or when `force`d), and only when stderr is a
 * terminal: in CI logs and pipes it prints nothing. `end` clears it.
 */
function statusLine(context: CommandContext): { draw: (text: string, force?: boolean) => void; end: () => void } {
  if (process.stderr.isTTY !== true) return { draw: () => undefined, end: () => undefined };
  let drawn = -Infinity;
  let shown = false;
  return {
    draw: (text, force = false) => {
      const now = performance.now();
      if (!force && now - drawn < REDRAW_MS) return;
      drawn = now;
      shown = true;
      context.stderr(`\r${text}\x1b[K`);
    },
    end: () => {
      if (shown) context.stderr('\r\x1b[K');
    },
  };
}

/** Progress of reading input files: records read and MB/s. Each file gets its own reporter; the line shows the sums. */
export function readingProgress(context: CommandContext): { reporter: () => ReadProgress | undefined; end: () => void } {
  if (process.stderr.isTTY !== true) return { reporter: () => undefined, end: () => undefined };
  const line = statusLine(context);
  const started = performance.now();
  const files: { records: number; bytes: number }[] = [];
  const draw = () => {
    const records = files.reduce((sum, file) => sum + file.records, 0);
    const megabytes = files.reduce((sum, file) => sum + file.bytes, 0) / 1e6;
    const rate = megabytes / Math.max((performance.now() - started) / 1000, 1e-3);
    line.draw(`reading: ${grouped(records)} records, ${megabytes.toFixed(0)} MB, ${rate.toFixed(0)} MB/s`);
  };
  return {
    reporter: () => {
      const file = { records: 0, bytes: 0 };
      files.push(file);
      return (records, bytes) => {
        file.records = records;
        file.bytes = bytes;
        draw();
      };
    },
    end: line.end,
  };
}

/** Progress of work items, such as judge calls: `label: done/total`, and the failures so far. */
export function countingProgress(context: CommandContext, label: string): { update: (done: number, total: number, failed?: number) => void; end: () => void } {
  const line = statusLine(context);
  return {
    update: (done, total, failed = 0) => line.draw(`${label}: ${done}/${total}${failed > 0 ? `, ${failed} failed` : ''}`, done === total),
    end: line.end,
  };
}
