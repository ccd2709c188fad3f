// Types of report.mjs for the tests that import it.

export interface ToolFigures {
  tool: string;
  median: number;
  cpu: number | null;
  min: number;
  peakKiB: number | null;
  note: string;
}
export interface PairedRatios {
  time: number | null;
  cpu: number | null;
}
export interface CaseRecord {
  workload: string;
  variant: string;
  scale: string;
  size: string;
  unit: string;
  records: number;
  bytes: number;
  runs: number;
  ours: ToolFigures;
  reference?: ToolFigures | undefined;
  earlier?: ToolFigures | undefined;
  paired: { reference?: PairedRatios | undefined; earlier?: PairedRatios | undefined };
}
export interface Scope {
  only: string[];
  quick: boolean;
  failed: boolean;
  pinned: boolean;
}
export interface Report {
  date: string;
  command: string;
  commit: { sha: string | null; dirty: string[] };
  builtAt: string;
  stale: boolean;
  machine: { cpu: string; cores: number; memoryGiB: number; platform: string; release: string; arch: string; load: number[] };
  node: { version: string; path: string | null };
  cpuAndMemory: boolean;
  pinned: boolean;
  trecEval: string | null;
  against: { revision: string; sha: string } | null;
  cases: CaseRecord[];
  scope: Scope;
  judge: string | null;
}
export interface Column {
  title: string;
  align?: 'r';
}
export type Table = { columns: Column[]; rows: (string | number)[][] };

export const WORKLOADS: string[];
export const BLOCK_START: string;
export const BLOCK_END: string;
export function textTable(columns: Column[], rows: (string | number)[][]): string;
export function markdownTable(columns: Column[], rows: (string | number)[][]): string;
export function resultTable(cases: CaseRecord[]): Table;
export function ratioTable(cases: CaseRecord[], key: 'reference' | 'earlier', ours: string): Table;
export function targetTable(cases: CaseRecord[], scope: Scope): Table;
export function reasonsNotToWrite(run: { write: boolean; quick: boolean; only: string[]; runs: number | null; failed: boolean }): string[];
export function performanceBlock(report: Report): string;
export function replaceBlock(document: string, block: string): string;
