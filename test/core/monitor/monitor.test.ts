import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { monitorReport, type MonitorSettings } from '../../../src/core/monitor/monitor.js';
import { lexicalSimilarity } from '../../../src/core/monitor/similarity.js';
import { rephraseCandidates, type Turn, turnColumns } from '../../../src/core/monitor/turns.js';
import { parseDuration, parseTimestamp } from '../../../src/core/catalog/parse/time.js';
import { cutWindows } from '../../../src/core/monitor/windows.js';

const DAY = 86_400_000;
const MARCH_1 = Date.parse('2026-03-01T00:00:00Z');

/**
 * A day of `turns` turns: `rephrased` sessions of a query and its rephrase 10 s later (the first turn rephrased),
 * the rest single-turn sessions; `refused` of the turns refused.
 */
function day(start: number, turns: number, rephrased: number, refused: number): Turn[] {
  const out: Turn[] = [];
  for (let s = 0; out.length < turns; s++) {
    const at = start + s * 120_000;
    const session = `${start}-${s}`;
    out.push({ session, at, query: `how do I reset my password ${s}`, answer: 'Open Settings.' });
    if (s < rephrased) out.push({ session, at: at + 10_000, query: `how do I reset my password ${s}`, answer: 'Open Settings.' });
  }
  return out.map((turn, i) => ({ ...turn, refused: i < refused }));
}

function report(turns: readonly Turn[], settings: Partial<MonitorSettings> = {}) {
  const columns = turnColumns(turns);
  const pairs = rephraseCandidates(columns, 60_000);
  return monitorReport(
    columns,
    pairs,
    pairs.map(({ first, next }) => lexicalSimilarity(turns[first]!.query, turns[next]!.query)),
    { plan: { kind: 'fixed', lengthMs: DAY }, threshold: 0.6, alpha: 0.05, ceilings: { rephrase: 0.1, refusal: 0.15 }, ...settings },
  );
}

describe('the window test', () => {
  // 8/100 rephrased and 5/100 refused on day one; 19/100 and 6/100 on day two.
  const turns = [...day(MARCH_1, 100, 8, 5), ...day(MARCH_1 + DAY, 100, 19, 6)];

  it('gives each window its counts and Wilson intervals', () => {
    const { windows } = report(turns);
    expect(windows.map((w) => [w.turns, w.rates.rephrase.count, w.rates.refusal.count])).toEqual([
      [100, 8, 5],
      [100, 19, 6],
    ]);
    // Wilson 95% for 19/100, by hand (z = 1.959964): 0.125148 to 0.277788.
    expect(windows[1]!.rates.rephrase.interval![0]).toBeCloseTo(0.1251475151, 8);
    expect(windows[1]!.rates.rephrase.interval![1]).toBeCloseTo(0.2777884538, 8);
  });

  it('tests a rise with the pooled two-proportion z test, one-sided, Holm across the two rates, with the Newcombe interval', () => {
    const change = report(turns).windows[1]!.comparison!.changes;
    // scipy: z = (0.19 − 0.08) / sqrt(0.135 · 0.865 · (2/100)) = 2.27616, norm.sf(z) = 0.0114182.
    expect(change.rephrase.z).toBeCloseTo(2.2761598026, 8);
    expect(change.rephrase.pValue).toBeCloseTo(0.0114182234, 8);
    // 6/100 against 5/100: z = 0.310161, norm.sf = 0.378219.
    expect(change.refusal.pValue).toBeCloseTo(0.3782191099, 8);
    // Holm over two: 2 · 0.011418 for the smaller, max(that, 0.378219) for the larger.
    expect(change.rephrase.adjustedPValue).toBeCloseTo(0.0228364468, 8);
    expect(change.refusal.adjustedPValue).toBeCloseTo(0.3782191099, 8);
    // Newcombe's hybrid score interval of 0.19 − 0.08 from the two Wilson intervals: 0.014589 to 0.206024.
    expect(change.rephrase.interval[0]).toBeCloseTo(0.0145893301, 8);
    expect(change.rephrase.interval[1]).toBeCloseTo(0.2060235979, 8);
    expect(change.rephrase).toMatchObject({ significant: true, aboveCeiling: true, alert: true });
    expect(change.refusal).toMatchObject({ significant: false, alert: false });
  });

  it('alerts only on the current window of the rise, and calls a rate that stays high elevated, not an alert', () => {
    const rise = report(turns);
    expect(rise.windows.map((w) => w.alerts)).toEqual([[], ['rephrase']]);
    expect(rise.status).toEqual({ rephrase: 'alert', refusal: 'ok' });
    const stays = report([...turns, ...day(MARCH_1 + 2 * DAY, 100, 19, 6)]);
    expect(stays.windows.map((w) => w.alerts)).toEqual([[], ['rephrase'], []]);
    expect(stays.status).toEqual({ rephrase: 'elevated', refusal: 'ok' });
  });

  it('needs the ceiling: a significant rise that stays below it does not alert', () => {
    const below = report(turns, { ceilings: { rephrase: 0.2, refusal: 0.15 } });
    expect(below.windows[1]!.comparison!.changes.rephrase).toMatchObject({ significant: true, aboveCeiling: false, alert: false });
    expect(below.status.rephrase).toBe('ok');
  });

  it('compares with the nearest earlier window that has turns, and leaves empty windows without rates', () => {
    const gap = report([...day(MARCH_1, 100, 8, 5), ...day(MARCH_1 + 2 * DAY, 100, 19, 6)]);
    expect(gap.windows.map((w) => w.turns)).toEqual([100, 0, 100]);
    expect(gap.windows[1]!.rates.rephrase).toEqual({ count: 0, n: 0, value: null, interval: null });
    expect(gap.windows[2]!.comparison!.baseline).toBe(0);
  });

  it('counts a next query after the rephrase window, or in another session, as no rephrase', () => {
    const turns: Turn[] = [
      { session: 'a', at: MARCH_1, query: 'reset password', answer: 'x' },
      { session: 'a', at: MARCH_1 + 61_000, query: 'reset password', answer: 'x' },
      { session: 'b', at: MARCH_1 + 1_000, query: 'reset password', answer: 'x' },
    ];
    expect(report(turns).rephrases).toBe(0);
    expect(report(turns.map((turn, i) => (i === 1 ? { ...turn, at: MARCH_1 + 60_000 } : turn))).rephrases).toBe(1);
  });
});

describe('windows and times', () => {
  it('cuts fixed windows at multiples of their length from the epoch (UTC days), and deploy windows at the deploys', () => {
    const times = [MARCH_1 + 1, MARCH_1 + DAY + 5, MARCH_1 + 3 * DAY - 1];
    const fixed = cutWindows(times, { kind: 'fixed', lengthMs: DAY });
    expect(fixed.windows.map((w) => new Date(w.start!).toISOString())).toEqual([
      '2026-03-01T00:00:00.000Z',
      '2026-03-02T00:00:00.000Z',
      '2026-03-03T00:00:00.000Z',
    ]);
    expect([...fixed.windowOf]).toEqual([0, 1, 2]);
    const deploys = cutWindows(times, { kind: 'deploys', at: [MARCH_1 + DAY + 5] });
    expect(deploys.windows).toEqual([
      { start: null, end: MARCH_1 + DAY + 5 },
      { start: MARCH_1 + DAY + 5, end: null },
    ]);
    expect([...deploys.windowOf]).toEqual([0, 1, 1]);
    expect(() => cutWindows(times, { kind: 'fixed', lengthMs: 1000 })).toThrow(/more than 10000; use a longer window/);
  });

  it('reads ISO 8601 with a zone and epoch numbers by their size; refuses a time without a zone', () => {
    const at = Date.parse('2026-03-01T09:30:00Z');
    expect(parseTimestamp('2026-03-01T09:30:00Z')).toBe(at);
    expect(parseTimestamp('2026-03-01T10:30:00+01:00')).toBe(at);
    expect(parseTimestamp(at / 1000)).toBe(at);
    expect(parseTimestamp(at)).toBe(at);
    expect(parseTimestamp(at * 1000)).toBe(at);
    expect(parseTimestamp(`${at}000000`)).toBe(at);
    expect(parseTimestamp('2026-03-01T09:30:00')).toBeUndefined();
    expect(parseTimestamp('yesterday')).toBeUndefined();
    expect(parseDuration('60s')).toBe(60_000);
    expect(parseDuration('1d')).toBe(DAY);
    expect(() => parseDuration('soon')).toThrow(/not a length of time/);
  });

  it('reads a plain UTC time by hand as Date.parse reads it, and every other text the long way', () => {
    // parseTimestamp as first written, for text.
    const byTheRule = (value: string) => {
      if (/^\d+$/.test(value.trim())) return parseTimestamp(Number(value));
      if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim())) return undefined;
      const ms = Date.parse(value.trim().replace(' ', 'T'));
      return Number.isNaN(ms) ? undefined : ms;
    };
    const part = (digits: number, max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(digits, '0'));
    const time = fc
      .record({
        year: fc.oneof(part(4, 9999), fc.constantFrom('0099', '1000', '2026', '20x6', '+002026')),
        month: fc.oneof(part(2, 13), fc.constantFrom('00', '1')),
        day: fc.oneof(part(2, 32), fc.constantFrom('28', '29', '30', '31', '00')),
        hour: fc.oneof(part(2, 25), fc.constantFrom('23', '24')),
        minute: fc.oneof(part(2, 61), fc.constantFrom('59', '60')),
        second: fc.oneof(part(2, 61), fc.constantFrom('59', '60')),
        fraction: fc.constantFrom('', '', '.000', '.123', '.5', '.1234', '.x00', '.', ',123'),
        t: fc.constantFrom('T', 'T', 'T', 't', ' '),
        zone: fc.constantFrom('Z', 'Z', 'Z', 'Z', 'z', '+01:00', '-0130', ''),
        pad: fc.constantFrom('', '', '', '', ' ', '\n'),
      })
      .map((p) => `${p.pad}${p.year}-${p.month}-${p.day}${p.t}${p.hour}:${p.minute}:${p.second}${p.fraction}${p.zone}${p.pad}`);
    fc.assert(
      fc.property(time, (text) => Object.is(parseTimestamp(text), byTheRule(text))),
      { numRuns: 10000 },
    );
  });
});
