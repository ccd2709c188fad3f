import { type EvalConfig } from '../core/scoring/score.js';
import type { NotRescorable } from '../core/compare/types.js';
import type { SideRecord } from '../core/compare/evidence.js';
import type { Derivation, ResultRecord } from '../core/record.js';
import { type GoldLabels, goldKeyOf, goldLabelsOf, OutcomeBuilder, type QuestionOutcomes } from '../core/scoring/outcomes.js';
import type { LineBytes, LinePlace, ReadProgress } from './lines.js';
import { grownFloat64, grownInt32 } from '../core/scoring/query-entries.js';
import { readResults } from './results.js';

/** A read run: its outcomes, warnings about the files, and the fields rag-gate does not know with their counts. */
export interface RunRead {
  readonly outcomes: QuestionOutcomes;
  readonly warnings: readonly string[];
  readonly unknownFields: ReadonlyMap<string, number>;
  /** Where each question's record is, when every file is JSON Lines and no question repeats. */
  readonly places?: RecordPlaces;
}

/**
 * Question `ids[i]`'s record is on line `lines[i]` of file `files[i]` (an index into the run's files), in its
 * `byteLengths[i]` bytes from `offsets[i]`.
 */
export interface RecordPlaces {
  readonly ids: readonly string[];
  readonly files: Int32Array;
  readonly lines: Int32Array;
  readonly offsets: Float64Array;
  readonly byteLengths: Int32Array;
}

/** How every file of one run is read: its settings, and the ids and score types its shards share. */
function sharedReadOptions(config: EvalConfig) {
  return { seenIds: new Map(), scoreKinds: new Map(), contextMatch: config.contextMatch, fields: config.fields, format: config.format };
}

/**
 * Reads and scores a results file, or several shards of one run (merged in order; an id in two shards is an
 * error). Throws InputError (file, line, field) on bad input.
 */
export async function readOutcomes(files: string | readonly string[], config: EvalConfig, onProgress?: ReadProgress): Promise<RunRead> {
  const builder = new OutcomeBuilder(config);
  const shared = sharedReadOptions(config);
  const warnings: string[] = [];
  const unknownFields = new Map<string, number>();
  let placeFiles: Int32Array = new Int32Array(1024);
  let placeLines: Int32Array = new Int32Array(1024);
  let placeOffsets: Float64Array = new Float64Array(1024);
  let placeByteLengths: Int32Array = new Int32Array(1024);
  let records = 0;
  // Only JSON Lines say where each record is.
  let allPlaced = true;
  for (const [index, file] of (typeof files === 'string' ? [files] : files).entries()) {
    const onRecord = (record: ResultRecord, line: number, _text: string, derivation: Derivation, bytes: LineBytes | undefined) => {
      builder.add(record, derivation);
      placeFiles = grownInt32(placeFiles, records + 1);
      placeLines = grownInt32(placeLines, records + 1);
      placeOffsets = grownFloat64(placeOffsets, records + 1);
      placeByteLengths = grownInt32(placeByteLengths, records + 1);
      placeFiles[records] = index;
      if (bytes === undefined) allPlaced = false;
      else {
        placeOffsets[records] = bytes.offset;
        placeByteLengths[records] = bytes.byteLength;
      }
      placeLines[records++] = line;
    };
    const read = await readResults(file, onRecord, { ...shared, onProgress });
    warnings.push(...read.warnings);
    builder.readAs(read.format);
    for (const [field, count] of read.unknownFields) unknownFields.set(field, (unknownFields.get(field) ?? 0) + count);
  }
  const outcomes = builder.build();
  // With repeats, a question's rows are collapsed into one and its records are on several lines.
  const places =
    allPlaced && outcomes.ids.length === records
      ? {
          ids: outcomes.ids,
          files: placeFiles.slice(0, records),
          lines: placeLines.slice(0, records),
          offsets: placeOffsets.slice(0, records),
          byteLengths: placeByteLengths.slice(0, records),
        }
      : undefined;
  return { outcomes, warnings, unknownFields, ...(places === undefined ? {} : { places }) };
}

/**
 * Re-reads the base run and scores the questions whose gold labels changed against the head's labels, from what
 * the base record holds: retrieval metrics from its `retrieved_ids`, correctness from its `answer` under the same
 * rule. A record that states `correct` (or `retrieval_ok`) itself cannot follow a changed expected answer (or
 * changed relevant documents): it is left out, with that reason.
 */
export async function rescoreUnderHeadLabels(
  files: readonly string[],
  headLabels: ReadonlyMap<string, { readonly key: string; readonly labels: GoldLabels }>,
  config: EvalConfig,
): Promise<{ outcomes: QuestionOutcomes; notRescorable: ReadonlyMap<string, Exclude<NotRescorable, 'not-rescored'>> }> {
  const builder = new OutcomeBuilder(config);
  const notRescorable = new Map<string, Exclude<NotRescorable, 'not-rescored'>>();
  const shared = sharedReadOptions(config);
  for (const file of files) {
    await readResults(
      file,
      (record) => {
        const head = headLabels.get(record.id);
        if (head === undefined) return;
        const relabelled: ResultRecord = {
          ...record,
          relevant_ids: head.labels.relevant_ids,
          answerable: head.labels.answerable,
          expected_answer: head.labels.expected_answer,
        };
        const own = goldLabelsOf(goldKeyOf(record));
        const relevantChanged = JSON.stringify(Object.entries(own.relevant_ids)) !== JSON.stringify(Object.entries(head.labels.relevant_ids));
        const answerChanged = own.expected_answer !== head.labels.expected_answer || own.answerable !== head.labels.answerable;
        if (record.correct !== undefined && answerChanged) notRescorable.set(record.id, 'correct-given');
        else if (record.retrieval_ok !== undefined && relevantChanged) notRescorable.set(record.id, 'retrieval-ok-given');
        else builder.add(relabelled);
      },
      shared,
    );
  }
  return { outcomes: builder.build(), notRescorable };
}

/** Longest answer kept for the evidence, in code points: reports cut it further where they show it. */
const EVIDENCE_TEXT_MAX = 2_000;
/** Most documents kept of a record's ranking for the evidence. */
const EVIDENCE_TOP_MAX = 20;

/** Longest start of a document's text kept to name it, in code points: reports show its first words. */
const DOCUMENT_TEXT_MAX = 200;

const bounded = (text: string | undefined, max = EVIDENCE_TEXT_MAX) =>
  text === undefined || text.length <= max ? text : Array.from(text).slice(0, max).join('');

/** The start of each top document's text, by id, when the ids were derived from the texts. */
function documentTexts(record: ResultRecord, top: readonly string[], derivation: Derivation): Record<string, string> | undefined {
  const contexts = record.retrieved_contexts;
  if (!derivation.documentIdsFromText || contexts === undefined || top.length === 0) return undefined;
  // Text ids are `text-` and hex digits: no key of an object's prototype.
  return Object.fromEntries(top.map((id, rank) => [id, bounded(contexts[rank], DOCUMENT_TEXT_MAX)!]));
}

/** What the first read of a run tells the second: whether every record had an id, and where each record is. */
export interface FirstRead {
  readonly idsGiven: boolean;
  readonly places?: RecordPlaces;
}

export const firstReadOf = (read: RunRead): FirstRead => ({
  idsGiven: read.outcomes.idsFromQuestion === 0,
  ...(read.places === undefined ? {} : { places: read.places }),
});

/**
 * Reads a run again for the records of `ids` only (the questions a report lists), keeping what a reviewer needs
 * to judge each change: the answer, the expected answer, the first documents retrieved (up to the retrieval-ok
 * rule's cut-off) and the trace URL. The first read keeps no text but the question, so that a run of any size
 * stays small in memory; this second read keeps at most a few kilobytes for each listed question. When the first
 * read noted where each record is (`places`), only the listed questions' lines are read, where they are in the
 * file; otherwise, when it found an id in every record (`idsGiven`), records of other questions are passed over
 * unparsed.
 */
export async function readEvidence(files: readonly string[], ids: ReadonlySet<string>, config: EvalConfig, first: FirstRead): Promise<Map<string, SideRecord>> {
  const found = new Map<string, SideRecord>();
  if (ids.size === 0) return found;
  const { k } = config.retrievalOk.metric;
  // A rule without a whole cut-off (map, iprec@0.5) has no top to speak of: keep the first documents.
  const depth = Number.isInteger(k) && k >= 1 ? Math.min(k, EVIDENCE_TOP_MAX) : EVIDENCE_TOP_MAX;
  const shared = { ...sharedReadOptions(config), ...(first.idsGiven && first.places === undefined ? { onlyIds: ids } : {}) };
  const placesByFile = first.places === undefined ? undefined : listedPlaces(first.places, ids, files.length);
  for (const [index, file] of files.entries()) {
    const onlyPlaces = placesByFile?.[index];
    if (onlyPlaces !== undefined && onlyPlaces.length === 0) continue;
    await readResults(
      file,
      (record, _line, _text, derivation) => {
        if (!ids.has(record.id)) return;
        const answer = bounded(record.answer);
        const expectedAnswer = bounded(record.expected_answer);
        const top = record.retrieved_ids?.slice(0, depth);
        const texts = top === undefined ? undefined : documentTexts(record, top, derivation);
        found.set(record.id, {
          ...(answer === undefined ? {} : { answer }),
          ...(expectedAnswer === undefined ? {} : { expectedAnswer }),
          ...(top === undefined ? {} : { top }),
          ...(record.trace_url === undefined ? {} : { traceUrl: bounded(record.trace_url) }),
          ...(texts === undefined ? {} : { documentTexts: texts }),
        });
      },
      onlyPlaces === undefined ? shared : { ...shared, onlyPlaces },
    );
  }
  return found;
}

/** For each of a run's files, the places of the records of `ids`, in file order. */
function listedPlaces(places: RecordPlaces, ids: ReadonlySet<string>, fileCount: number): LinePlace[][] {
  const listed = Array.from({ length: fileCount }, (): LinePlace[] => []);
  places.ids.forEach((id, i) => {
    if (ids.has(id)) listed[places.files[i]!]!.push({ line: places.lines[i]!, offset: places.offsets[i]!, byteLength: places.byteLengths[i]! });
  });
  for (const inFile of listed) inFile.sort((a, b) => a.offset - b.offset);
  return listed;
}
