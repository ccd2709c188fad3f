import { describe, expect, it } from 'vitest';
import { appendRun, EMPTY_HISTORY, type History } from '../../src/core/history/history.js';
import { InputError } from '../../src/core/errors.js';
import { historyJson, parseHistory } from '../../src/sources/history.js';

const history: History = [0.9, 0.85, 0.8].reduce<History>(
  (h, value, i) =>
    appendRun(h, {
      commit: `${i + 1}`.repeat(40),
      date: `2026-10-0${i + 1}T00:00:00.000Z`,
      n: 100,
      metrics: { retrieval_ok: { value, n: 100, ci: [value - 0.05, value + 0.05] }, mrr: { value: value / 2, n: 100 } },
    }),
  EMPTY_HISTORY,
);

describe('historyJson and parseHistory', () => {
  it('write one run a line and read back the same history', () => {
    const text = historyJson(history);
    expect(text.split('\n')).toHaveLength(3 + 3);
    expect(text.split('\n')[1]).toBe(JSON.stringify(history.runs[0]) + ',');
    expect(parseHistory(text, 'h.json')).toEqual(history);
    expect(historyJson(EMPTY_HISTORY)).toBe('{"version":1,"runs":[]}\n');
    expect(parseHistory(historyJson(EMPTY_HISTORY), 'h.json')).toEqual(EMPTY_HISTORY);
  });

  it('name the file (an artifact entry) and the first bad field', () => {
    const bad = historyJson(history).replace('"value":0.85', '"value":"0.85"');
    expect(() => parseHistory(bad, 'rag-gate-results/rag-gate-history.json')).toThrow(InputError);
    expect(() => parseHistory(bad, 'rag-gate-results/rag-gate-history.json')).toThrow(
      /^rag-gate-results\/rag-gate-history\.json: runs\.1\.metrics\.retrieval_ok\.value: /,
    );
    expect(() => parseHistory('{"version": 1, "runs": [', 'h.json')).toThrow(/^h\.json: not a readable JSON history file/);
  });
});
