import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

interface Doc {
  id: string;
  title: string;
  text: string;
}

interface GoldenQuestion {
  id: string;
  question: string;
  relevant_ids: string[];
  expected_answer: string;
  answerable: boolean;
  tags: string[];
}

const SECTIONS: Record<string, string> = {
  plans: 'plans',
  auth: 'auth',
  billing: 'billing',
  int: 'integrations',
  sec: 'security',
  trouble: 'troubleshooting',
};
const KINDS = ['factual', 'synthesis', 'unanswerable'];

const corpusDir = join(ROOT, 'examples', 'corpus');
const docs: Doc[] = readdirSync(corpusDir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .flatMap((name) => JSON.parse(readFileSync(join(corpusDir, name), 'utf8')) as Doc[]);
const byId = new Map(docs.map((doc) => [doc.id, doc]));
const golden: GoldenQuestion[] = readFileSync(join(ROOT, 'examples', 'golden.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as GoldenQuestion);

/** The pipeline's sentence split: after . ? ! before an upper-case letter, a digit or a slash. */
const sentences = (text: string) => text.split(/(?<=[.?!])\s+(?=[A-Z0-9/])/).filter((s) => s.trim() !== '');
const kindOf = (q: GoldenQuestion) => q.tags.filter((tag) => KINDS.includes(tag));

describe('the example corpus', () => {
  it('has 150–300 short articles with stable, unique ids', () => {
    expect(docs.length).toBeGreaterThanOrEqual(150);
    expect(docs.length).toBeLessThanOrEqual(300);
    expect(new Set(docs.map((d) => d.id)).size).toBe(docs.length);
    for (const doc of docs) {
      expect(doc.id, doc.id).toMatch(/^(plans|auth|billing|int|sec|trouble)-\d{4}$/);
      expect(doc.title.trim(), doc.id).not.toBe('');
      const count = sentences(doc.text).length;
      expect(count, `${doc.id} has ${count} sentences`).toBeGreaterThanOrEqual(2);
      expect(count, `${doc.id} has ${count} sentences`).toBeLessThanOrEqual(6);
    }
  });

  it('covers every section of the help centre', () => {
    const prefixes = new Set(docs.map((d) => d.id.split('-')[0]));
    expect([...prefixes].sort()).toEqual(Object.keys(SECTIONS).sort());
  });
});

describe('the golden set', () => {
  it('has about 200 questions with unique ids and texts', () => {
    expect(golden.length).toBeGreaterThanOrEqual(180);
    expect(golden.length).toBeLessThanOrEqual(230);
    expect(new Set(golden.map((q) => q.id)).size).toBe(golden.length);
    expect(new Set(golden.map((q) => q.question)).size).toBe(golden.length);
    for (const q of golden) expect(q.id).toMatch(/^q-\d{4}$/);
  });

  it('names only documents that exist in the corpus', () => {
    const missing = golden.flatMap((q) => q.relevant_ids.filter((id) => !byId.has(id)).map((id) => `${q.id}: ${id}`));
    expect(missing).toEqual([]);
  });

  it('tags every question with its kind and the sections of its documents', () => {
    for (const q of golden) {
      expect(kindOf(q), q.id).toHaveLength(1);
      const sections = q.tags.filter((tag) => !KINDS.includes(tag));
      expect(sections.length, q.id).toBeGreaterThan(0);
      for (const section of sections) expect(Object.values(SECTIONS), q.id).toContain(section);
      for (const id of q.relevant_ids) expect(sections, q.id).toContain(SECTIONS[id.split('-')[0]!]);
    }
  });

  it('has both kinds of answerable questions: factual (one article) and synthesis (two articles)', () => {
    const factual = golden.filter((q) => kindOf(q)[0] === 'factual');
    const synthesis = golden.filter((q) => kindOf(q)[0] === 'synthesis');
    expect(factual.length).toBeGreaterThanOrEqual(50);
    expect(synthesis.length).toBeGreaterThanOrEqual(30);
    for (const q of factual) expect(new Set(q.relevant_ids).size, q.id).toBe(1);
    for (const q of synthesis) expect(new Set(q.relevant_ids).size, q.id).toBe(2);
    for (const q of [...factual, ...synthesis]) expect(q.answerable, q.id).toBe(true);
  });

  it('has about 15% unanswerable questions, marked answerable: false with no relevant documents', () => {
    const unanswerable = golden.filter((q) => kindOf(q)[0] === 'unanswerable');
    const share = unanswerable.length / golden.length;
    expect(share).toBeGreaterThanOrEqual(0.12);
    expect(share).toBeLessThanOrEqual(0.18);
    for (const q of unanswerable) {
      expect(q.answerable, q.id).toBe(false);
      expect(q.relevant_ids, q.id).toEqual([]);
    }
  });

  it("takes every expected answer from the question's own articles, so it has a definite answer", () => {
    for (const q of golden.filter((g) => g.answerable)) {
      const source = q.relevant_ids.map((id) => byId.get(id)?.text ?? '').join(' ');
      for (const sentence of sentences(q.expected_answer)) expect(source, `${q.id}: ${sentence}`).toContain(sentence);
    }
  });
});
