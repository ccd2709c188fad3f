import type { ReadProgress } from '../io/lines.js';
import type { CommandContext } from './context.js';

/**
 * Progress of reading input files, one line on stderr redrawn at most every 100 ms, only when stderr is a
 * terminal: records read and MB/s. Each file gets its own reporter; the line shows the sums.
 */
export function readingProgress(context: CommandContext): { reporter: () => ReadProgress | undefined; end: () => void } {
  if (process.stderr.isTTY !== true) return { reporter: () => undefined, end: () => undefined };
  const started = performance.now();
  const files: { records: number; bytes: number }[] = [];
  let drawn = 0;
  let shown = false;
  const draw = () => {
    const now = performance.now();
    if (now - drawn < 100) return;
    drawn = now;
    shown = true;
    const records = files.reduce((sum, file) => sum + file.records, 0);
    const megabytes = files.reduce((sum, file) => sum + file.bytes, 0) / 1e6;
    const rate = megabytes / Math.max((now - started) / 1000, 1e-3);
    context.stderr(`\rreading: ${records.toLocaleString('en-US')} records, ${megabytes.toFixed(0)} MB, ${rate.toFixed(0)} MB/s\x1b[K`);
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
    end: () => {
      if (shown) context.stderr('\r\x1b[K');
    },
  };
}
