import { type EvalConfig } from '../core/scoring/score.js';
import type { NotRescorable } from '../core/compare/types.js';
import type { SideRecord } from '../core/compare/evidence.js';
import type { Derivation, ResultRecord } from '../core/record.js';
import { concatOutcomes, type GoldLabels, goldKeyOf, goldLabelsOf, OutcomeBuilder, type QuestionOutcomes } from '../core/scoring/outcomes.js';
import type { LineBytes, LinePlace, ReadProgress } from './lines.js';
import { grownFloat64, grownInt32 } from '../core/scoring/query-entries.js';
import { fileWarnings, readResults, type ScoreKind } from './results.js';
import type { ByteRange } from './line-chunks.js';
import { MAX_OTHER_FIELDS } from './read-limits.js';
import type { ResultsFormat } from '../core/catalog/formats.js';

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

/** A part of a run read alone: a whole file, or a range of a JSON Lines file. */
export interface PartTask {
  readonly file: string;
  readonly range?: ByteRange;
}

/** What reading a part gives, for `mergeParts` to join with the run's other parts. */
export interface PartRead {
  readonly outcomes: QuestionOutcomes;
  readonly format: ResultsFormat;
  readonly notes: readonly string[];
  readonly unknownFields: ReadonlyMap<string, number>;
  readonly scores: ReadonlyMap<string, ScoreKind>;
  readonly scoreRecords: ReadonlyMap<string, number>;
  /** The lines of a range (0 for a whole file), so that the ranges after it number theirs from the file's start. */
  readonly lines: number;
  /** Where each record is (lines numbered within a range), when the part is JSON Lines. */
  readonly places?: { readonly lines: Int32Array; readonly offsets: Float64Array; readonly byteLengths: Int32Array };
}

/** Reads and scores one part of a run alone. Throws InputError on bad input, whose lines count from the range's start. */
export async function readPart(task: PartTask, config: EvalConfig): Promise<PartRead> {
  const builder = new OutcomeBuilder(config);
  let lines: Int32Array = new Int32Array(1024);
  let offsets: Float64Array = new Float64Array(1024);
  let byteLengths: Int32Array = new Int32Array(1024);
  let records = 0;
  let allPlaced = true;
  const onRecord = (record: ResultRecord, line: number, _text: string, derivation: Derivation, bytes: LineBytes | undefined) => {
    builder.add(record, derivation);
    lines = grownInt32(lines, records + 1);
    offsets = grownFloat64(offsets, records + 1);
    byteLengths = grownInt32(byteLengths, records + 1);
    if (bytes === undefined) allPlaced = false;
    else {
      offsets[records] = bytes.offset;
      byteLengths[records] = bytes.byteLength;
    }
    lines[records++] = line;
  };
  const read = await readResults(task.file, onRecord, { ...sharedReadOptions(config), ...(task.range === undefined ? {} : { range: task.range }) });
  builder.readAs(read.format);
  return {
    outcomes: builder.build(),
    format: read.format,
    notes: read.notes,
    unknownFields: read.unknownFields,
    scores: read.scores,
    scoreRecords: read.scoreRecords,
    lines: read.lines,
    ...(allPlaced ? { places: { lines: lines.slice(0, records), offsets: offsets.slice(0, records), byteLengths: byteLengths.slice(0, records) } } : {}),
  };
}

/**
 * One run from its parts, read alone in file order (a file's ranges in order): what `readOutcomes` reads from the
 * files in one pass. Undefined when only one pass can tell what the run holds, and the caller reads it so: a part
 * with repeats, a question in two parts (a repeat or a duplicate), a score read as a number in one part and as
 * true/false in another, or too many field names not ours in one file (the last two are errors, reported with the
 * right lines by that pass).
 */
export function mergeParts(
  files: readonly string[],
  parts: readonly (PartTask & { readonly fileIndex: number; readonly read: PartRead })[],
): RunRead | undefined {
  if (parts.some((part) => part.read.outcomes.repeats !== undefined)) return undefined;
  const outcomes = concatOutcomes(parts.map((part) => part.read.outcomes));
  if (new Set(outcomes.ids).size !== outcomes.size) return undefined;
  const kinds = new Map<string, ScoreKind>();
  for (const { read } of parts) {
    for (const [name, kind] of read.scores) {
      if ((kinds.get(name) ?? kind) !== kind) return undefined;
      kinds.set(name, kind);
    }
  }
  const warnings: string[] = [];
  const unknownFields = new Map<string, number>();
  for (const [index, file] of files.entries()) {
    const own = parts.filter((part) => part.fileIndex === index);
    const fileUnknown = new Map<string, number>();
    const scores = new Map<string, ScoreKind>();
    const scoreRecords = new Map<string, number>();
    for (const { read } of own) {
      for (const [field, count] of read.unknownFields) fileUnknown.set(field, (fileUnknown.get(field) ?? 0) + count);
      for (const [name, kind] of read.scores) scores.set(name, kind);
      for (const [name, count] of read.scoreRecords) scoreRecords.set(name, (scoreRecords.get(name) ?? 0) + count);
    }
    if (new Set([...fileUnknown.keys(), ...scores.keys()]).size > MAX_OTHER_FIELDS) return undefined;
    warnings.push(...fileWarnings(file, own[0]?.read.notes ?? [], fileUnknown, scores, scoreRecords));
    for (const [field, count] of fileUnknown) unknownFields.set(field, (unknownFields.get(field) ?? 0) + count);
  }
  const placed = parts.every((part) => part.read.places !== undefined);
  if (!placed) return { outcomes, warnings, unknownFields };
  const lineBase = new Map<number, number>();
  const placeFiles = new Int32Array(outcomes.size);
  const placeLines = new Int32Array(outcomes.size);
  const placeOffsets = new Float64Array(outcomes.size);
  const placeByteLengths = new Int32Array(outcomes.size);
  let row = 0;
  for (const { fileIndex, read } of parts) {
    const base = lineBase.get(fileIndex) ?? 0;
    const places = read.places!;
    placeFiles.fill(fileIndex, row, row + places.lines.length);
    for (let i = 0; i < places.lines.length; i++) placeLines[row + i] = base + places.lines[i]!;
    placeOffsets.set(places.offsets, row);
    placeByteLengths.set(places.byteLengths, row);
    row += places.lines.length;
    lineBase.set(fileIndex, base + read.lines);
  }
  const places = { ids: outcomes.ids, files: placeFiles, lines: placeLines, offsets: placeOffsets, byteLengths: placeByteLengths };
  return { outcomes, warnings, unknownFields, places };
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
