import type { Comparison, QuestionEvidence, QuestionSide } from './types.js';

/**
 * The questions whose answers and documents the reports show: the regressions first, then the other retrieval
 * regressions, then the fixes, at most `max` of them. The comment cannot show more, and the evidence is read again
 * from the files for these questions only, so a run of any size keeps a bounded amount of text.
 */
export function evidenceIds(comparison: Comparison, max: number): Set<string> {
  const ids = new Set<string>();
  for (const list of [comparison.regressions, comparison.retrievalRegressions, comparison.fixed]) {
    for (const item of list) {
      if (ids.size >= max) return ids;
      ids.add(item.id);
    }
  }
  return ids;
}

/** One side of a record, as read for the evidence. */
export interface SideRecord extends QuestionSide {
  readonly expectedAnswer?: string;
}

/** The comparison with each listed question's evidence from the base and head records read for it. */
export function withEvidence(comparison: Comparison, base: ReadonlyMap<string, SideRecord>, head: ReadonlyMap<string, SideRecord>): Comparison {
  const evidenceOf = (id: string): QuestionEvidence | undefined => {
    const before = base.get(id);
    const after = head.get(id);
    if (before === undefined && after === undefined) return undefined;
    const side = (record: SideRecord): QuestionSide => ({
      ...(record.answer === undefined ? {} : { answer: record.answer }),
      ...(record.top === undefined ? {} : { top: record.top }),
      ...(record.traceUrl === undefined ? {} : { traceUrl: record.traceUrl }),
      ...(record.documentTexts === undefined ? {} : { documentTexts: record.documentTexts }),
    });
    const expectedAnswer = after?.expectedAnswer ?? before?.expectedAnswer;
    return {
      ...(expectedAnswer === undefined ? {} : { expectedAnswer }),
      ...(before === undefined ? {} : { base: side(before) }),
      ...(after === undefined ? {} : { head: side(after) }),
    };
  };
  const attach = <T extends { id: string }>(item: T): T => {
    const evidence = evidenceOf(item.id);
    return evidence === undefined ? item : { ...item, evidence };
  };
  return {
    ...comparison,
    regressions: comparison.regressions.map(attach),
    retrievalRegressions: comparison.retrievalRegressions.map(attach),
    fixed: comparison.fixed.map(attach),
  };
}
