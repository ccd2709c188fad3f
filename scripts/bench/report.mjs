// The bench's figures as tables, for its standard output (plain text) and for docs/performance.md (Markdown, in
// the block between BLOCK_START and BLOCK_END, which `npm run bench` rewrites after a full run). Pure functions of
// the bench's result records, so that test/bench/report.test.ts checks them without running the bench.

export const TREC_QUERIES = 10_000;
export const TREC_DEPTH = 1_000;
export const COMPARE_QUESTIONS = 100_000;
export const COMPARE_DEPTH = 100;
export const ACTION_QUESTIONS = 5_000;
/** Turns of the monitor's conversation log at full size: a month of a busy assistant's traffic. */
export const MONITOR_TURNS = 1_000_000;
export const TREC_METRICS = 'map,ndcg@10,mrr,recall@100,precision@10';
export const WORKLOADS = ['trec', 'compare', 'action', 'monitor', 'judge'];
/** Runs per workload and size when `--runs` is not given. */
export const DEFAULT_RUNS = { full: 3, smaller: 5, action: 5 };
/** The targets of issue 19 (realistic workloads); the friendly TREC workload keeps its earlier 0.27×. */
export const TARGET = {
  trecRatio: 0.5,
  friendlyTrecRatio: 0.3,
  compareSeconds: 5,
  /** compare at full size pinned to one core, as issue 40 restates it. */
  compareOneCoreSeconds: 8,
  /** compare at full size on every core, not pinned (issue 40). */
  compareUnpinnedSeconds: 3,
  /** Peak RSS of compare (pinned and unpinned) and of the monitor at full size (issue 40: whatever the input). */
  compareMiB: 1024,
  actionSeconds: 1,
  /** Time per record at full size against 1/10: at most this much higher, or growth is not linear. */
  growth: 1.5,
};

export const BLOCK_START = '<!-- bench:start -->';
export const BLOCK_END = '<!-- bench:end -->';

// ---------------------------------------------------------------------------------------------------------------
// Formatting

const MiB = 1024 * 1024;
export const group = (n) => Math.round(n).toLocaleString('en-US');
export const seconds = (s) => `${s.toFixed(s < 10 ? 3 : 2)} s`;
const cpuSeconds = (value) => (value === null ? 'n/a' : seconds(value));
export const mebibytes = (kib) => (kib === null ? 'n/a' : `${group(kib / 1024)} MiB`);
const rate = (perSecond) =>
  perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(2)} M/s` : perSecond >= 1e3 ? `${(perSecond / 1e3).toFixed(1)} k/s` : `${perSecond.toFixed(0)} /s`;
const microseconds = (s) => (s * 1e6).toFixed(s >= 1e-4 ? 0 : s >= 1e-5 ? 1 : s >= 1e-6 ? 2 : 3);
const ratio = (value) => (value === null || value === undefined ? 'n/a' : value.toFixed(2));
export const utc = (date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** A plain text table: columns padded to their widest cell, numbers (align 'r') flush right. */
export function textTable(columns, rows) {
  const widths = columns.map((column, c) => Math.max(column.title.length, ...rows.map((row) => String(row[c]).length)));
  const line = (cells) =>
    cells
      .map((cell, c) => (columns[c].align === 'r' ? String(cell).padStart(widths[c]) : String(cell).padEnd(widths[c])))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.title)), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** The same table in GitHub Markdown. */
export function markdownTable(columns, rows) {
  const cell = (value) => String(value).replaceAll('|', '\\|');
  const line = (cells) => `| ${cells.map(cell).join(' | ')} |`;
  return [
    line(columns.map((column) => column.title)),
    `|${columns.map((column) => (column.align === 'r' ? '---:' : '---')).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Tables. A case record: { workload, variant, scale, size, unit, records, bytes, runs, ours, reference?, earlier?,
// paired: { reference?, earlier? } }, each tool's figures { tool, median, cpu, min, peakKiB, note } (seconds, KiB;
// cpu and peakKiB null without GNU time), paired { time, cpu }: the median of each run's ratio.

/** Every case's figures for this build. */
export function resultTable(cases) {
  const columns = [
    { title: 'workload' },
    { title: 'variant' },
    { title: 'scale' },
    { title: 'size' },
    { title: 'records', align: 'r' },
    { title: 'input', align: 'r' },
    { title: 'runs', align: 'r' },
    { title: 'median', align: 'r' },
    { title: 'CPU', align: 'r' },
    { title: 'min', align: 'r' },
    { title: 'peak RSS', align: 'r' },
    { title: 'records/s', align: 'r' },
    { title: 'µs/record', align: 'r' },
    { title: 'note' },
  ];
  const rows = cases.map(({ workload, variant, scale, size, unit, records, bytes, runs, ours }) => [
    workload,
    variant,
    scale,
    size,
    `${group(records)} ${unit}`,
    `${(bytes / MiB).toFixed(1)} MiB`,
    runs,
    seconds(ours.median),
    cpuSeconds(ours.cpu),
    seconds(ours.min),
    mebibytes(ours.peakKiB),
    rate(records / ours.median),
    microseconds(ours.median / records),
    ours.note,
  ]);
  return { columns, rows };
}

function ratios(ours, reference) {
  return {
    time: ours.median / reference.median,
    cpu: ours.cpu === null || reference.cpu === null ? null : ours.cpu / reference.cpu,
    memory: ours.peakKiB === null || reference.peakKiB === null ? null : ours.peakKiB / reference.peakKiB,
  };
}

/** Each case's figures for another tool (`key`: 'reference' for trec_eval, 'earlier' for --against) and this build's over them. */
export function ratioTable(cases, key, ours) {
  const columns = [
    { title: 'workload' },
    { title: 'variant' },
    { title: 'scale' },
    { title: 'size' },
    { title: 'runs', align: 'r' },
    { title: 'median', align: 'r' },
    { title: 'CPU', align: 'r' },
    { title: 'peak RSS', align: 'r' },
    { title: `wall ${ours}`, align: 'r' },
    { title: `CPU ${ours}`, align: 'r' },
    { title: `memory ${ours}`, align: 'r' },
    { title: 'wall, run by run', align: 'r' },
    { title: 'CPU, run by run', align: 'r' },
  ];
  const rows = cases
    .filter((found) => found[key])
    .map(({ workload, variant, scale, size, runs, ours: mine, [key]: theirs, paired }) => {
      const r = ratios(mine, theirs);
      return [
        workload,
        variant,
        scale,
        size,
        runs,
        seconds(theirs.median),
        cpuSeconds(theirs.cpu),
        mebibytes(theirs.peakKiB),
        ratio(r.time),
        ratio(r.cpu),
        ratio(r.memory),
        ratio(paired?.[key]?.time),
        ratio(paired?.[key]?.cpu),
      ];
    });
  return { columns, rows };
}

/**
 * The targets of issue 19, each at the size it is stated for, and linear growth. `scope`: { only (workload names),
 * quick, failed (a run failed), pinned (compare and the action ran on one core) }.
 */
export function targetTable(cases, scope) {
  const find = (workload, variant, scale) => cases.find((found) => found.workload === workload && found.variant === variant && found.scale === scale);
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  const memoryVerdict = (peakKiB) => (peakKiB === null ? 'n/a' : verdict(peakKiB / 1024 <= TARGET.compareMiB));
  const notRun = (workload, scale) =>
    !scope.only.includes(workload)
      ? 'not run (--only)'
      : scope.quick && scale === 'full'
        ? 'not run (--quick)'
        : scope.failed
          ? 'not measured (the run failed)'
          : 'not measured';
  const rows = [];
  const ratioRows = (title, found, checks) => {
    if (found && found.reference) {
      const r = ratios(found.ours, found.reference);
      checks.forEach(([what, limit], i) => {
        const value = r[what === 'wall' ? 'time' : what];
        rows.push([i === 0 ? title : '', `${what} ours/trec_eval ≤ ${limit}`, ratio(value), value === null ? 'n/a' : verdict(value <= limit)]);
      });
    } else {
      const why = found ? 'not measured (set TREC_EVAL to the trec_eval binary)' : notRun('trec', 'full');
      checks.forEach(([what, limit], i) => rows.push([i === 0 ? title : '', `${what} ours/trec_eval ≤ ${limit}`, why, '']));
    }
  };
  ratioRows(`trec, ${group(TREC_QUERIES)} q × ${group(TREC_DEPTH)}, realistic`, find('trec', 'realistic', 'full'), [
    ['wall', TARGET.trecRatio],
    ['cpu', TARGET.trecRatio],
    ['memory', TARGET.trecRatio],
  ]);
  ratioRows(`trec, ${group(TREC_QUERIES)} q × ${group(TREC_DEPTH)}, 2,000 docnos`, find('trec', 'friendly', 'full'), [['wall', TARGET.friendlyTrecRatio]]);
  const compareFull = find('compare', 'realistic', 'full');
  const compareTitle = `compare, ${group(COMPARE_QUESTIONS)} q × ${COMPARE_DEPTH}${scope.pinned ? ', one core' : ''}`;
  if (compareFull) {
    const { median: time, peakKiB } = compareFull.ours;
    rows.push([compareTitle, `median time ≤ ${TARGET.compareSeconds} s`, seconds(time), verdict(time <= TARGET.compareSeconds)]);
    rows.push(['', `median time ≤ ${TARGET.compareOneCoreSeconds} s (issue 40)`, seconds(time), verdict(time <= TARGET.compareOneCoreSeconds)]);
    rows.push(['', 'peak RSS ≤ 1 GiB', mebibytes(peakKiB), memoryVerdict(peakKiB)]);
  } else {
    rows.push([compareTitle, `median time ≤ ${TARGET.compareSeconds} s`, notRun('compare', 'full'), '']);
    rows.push(['', `median time ≤ ${TARGET.compareOneCoreSeconds} s (issue 40)`, notRun('compare', 'full'), '']);
    rows.push(['', 'peak RSS ≤ 1 GiB', notRun('compare', 'full'), '']);
  }
  const unpinned = find('compare', 'unpinned', 'full');
  const unpinnedTitle = `compare, ${group(COMPARE_QUESTIONS)} q × ${COMPARE_DEPTH}, every core`;
  if (unpinned) {
    const { median: time } = unpinned.ours;
    rows.push([unpinnedTitle, `median time ≤ ${TARGET.compareUnpinnedSeconds} s`, seconds(time), verdict(time <= TARGET.compareUnpinnedSeconds)]);
    rows.push(['', 'peak RSS ≤ 1 GiB', mebibytes(unpinned.ours.peakKiB), memoryVerdict(unpinned.ours.peakKiB)]);
  } else {
    rows.push([unpinnedTitle, `median time ≤ ${TARGET.compareUnpinnedSeconds} s`, notRun('compare', 'full'), '']);
    rows.push(['', 'peak RSS ≤ 1 GiB', notRun('compare', 'full'), '']);
  }
  const monitor = find('monitor', 'realistic', 'full');
  const monitorTitle = `monitor, ${group(MONITOR_TURNS)} turns`;
  if (monitor) rows.push([monitorTitle, 'peak RSS ≤ 1 GiB', mebibytes(monitor.ours.peakKiB), memoryVerdict(monitor.ours.peakKiB)]);
  else rows.push([monitorTitle, 'peak RSS ≤ 1 GiB', notRun('monitor', 'full'), '']);
  const action = find('action', 'realistic', 'full');
  const actionTitle = `action, ${group(ACTION_QUESTIONS)} q${scope.pinned ? ', one core' : ''}`;
  if (action)
    rows.push([actionTitle, `median time ≤ ${TARGET.actionSeconds} s`, seconds(action.ours.median), verdict(action.ours.median <= TARGET.actionSeconds)]);
  else rows.push([actionTitle, `median time ≤ ${TARGET.actionSeconds} s`, notRun('action', 'full'), '']);
  const actionUnpinned = find('action', 'unpinned', 'full');
  const actionUnpinnedTitle = `action, ${group(ACTION_QUESTIONS)} q, every core`;
  const actionUnpinnedTarget = `median time ≤ ${TARGET.actionSeconds} s (issue 40)`;
  if (actionUnpinned)
    rows.push([actionUnpinnedTitle, actionUnpinnedTarget, seconds(actionUnpinned.ours.median), verdict(actionUnpinned.ours.median <= TARGET.actionSeconds)]);
  else rows.push([actionUnpinnedTitle, actionUnpinnedTarget, notRun('action', 'full'), '']);
  for (const [workload, variant] of [
    ['trec', 'realistic'],
    ['trec', 'friendly'],
    ['compare', 'realistic'],
    ['action', 'realistic'],
    ['monitor', 'realistic'],
  ]) {
    const full = find(workload, variant, 'full');
    const tenth = find(workload, variant, '1/10');
    if (!full || !tenth) continue;
    const growth = full.ours.median / full.records / (tenth.ours.median / tenth.records);
    rows.push([`${workload} ${variant}, full against 1/10`, `µs/record grows ≤ ${TARGET.growth}×`, `${growth.toFixed(2)}×`, verdict(growth <= TARGET.growth)]);
  }
  return { columns: [{ title: 'workload' }, { title: 'target' }, { title: 'measured', align: 'r' }, { title: 'result' }], rows };
}

// ---------------------------------------------------------------------------------------------------------------
// When the bench writes docs/performance.md

/**
 * Why this run must not replace the figures in docs/performance.md: an empty list for a full run (every workload at
 * every size, at least the default number of runs, none failed, writing not turned off). A reduced run's figures
 * (fewer sizes, workloads or runs) would sit in the document as if they were the full bench's.
 */
export function reasonsNotToWrite({ write, quick, only, runs, failed }) {
  const reasons = [];
  if (!write) reasons.push('--no-write');
  if (quick) reasons.push('--quick (no full-size trec, compare and monitor, 1/10 of the judge)');
  const left = WORKLOADS.filter((workload) => !only.includes(workload));
  if (left.length > 0) reasons.push(`--only (${left.join(', ')} not run)`);
  if (runs !== null && runs < Math.max(DEFAULT_RUNS.full, DEFAULT_RUNS.smaller, DEFAULT_RUNS.action))
    reasons.push(`--runs ${runs} (fewer than the default ${DEFAULT_RUNS.full} at full size, ${DEFAULT_RUNS.smaller} for the smaller ones)`);
  if (failed) reasons.push('a workload failed');
  return reasons;
}

// ---------------------------------------------------------------------------------------------------------------
// The generated block of docs/performance.md

/**
 * The block's Markdown, from a report: { date (ISO), command, commit: { sha (null outside git), dirty: [paths] }, builtAt (ISO), stale
 * (dist/ not what src/ builds to), machine: { cpu, cores, memoryGiB, platform, release, arch, load: [1, 5, 15 min] }, node:
 * { version, path (null: the bench's own) }, cpuAndMemory (GNU time there), pinned, trecEval (its command, or null),
 * against: { revision, sha } or null, cases, scope (see targetTable), judge (its report in Markdown, or null) }.
 */
export function performanceBlock(report) {
  const { commit, machine, node } = report;
  const dirty =
    commit.sha === null
      ? 'not a git checkout'
      : commit.dirty.length === 0
        ? 'clean tree'
        : `**uncommitted changes** (${commit.dirty.length} file${commit.dirty.length === 1 ? '' : 's'}: ${commit.dirty.map((path) => `\`${path}\``).join(', ')})`;
  const lines = [
    `Written by \`${report.command}\` at ${utc(new Date(report.date))}. Edit nothing between the markers: the next full run replaces it.`,
    '',
    `- **Commit:** ${commit.sha === null ? 'none' : `\`${commit.sha}\``}, ${dirty}; \`dist/\` built ${utc(new Date(report.builtAt))}${report.stale ? ' (**dist/ is not what src/ builds to**: these figures are of the committed bundle)' : ''}`,
    `- **Node.js:** ${node.version}${node.path === null ? '' : ` (\`--node ${node.path}\`)`}`,
    `- **Machine:** ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB RAM, ${machine.platform} ${machine.release} ${machine.arch}; load ${machine.load.map((load) => load.toFixed(2)).join(' ')} (1, 5, 15 min averages at start)`,
    `- **Measured:** ${report.cpuAndMemory ? 'wall time; CPU time (user + system) and peak RSS from GNU time' : 'wall time only (no GNU time at /usr/bin/time)'}; \`compare\` and the action ${report.pinned ? 'pinned to one core (`taskset -c 0`)' : 'not pinned (no taskset)'}; the median of the runs, peak RSS the largest over them`,
    `- **Workloads:** trec ${group(TREC_QUERIES)} queries × ${group(TREC_DEPTH)} (realistic: MS MARCO passage numbers; friendly: 2,000 docnos), metrics ${TREC_METRICS}; compare ${group(COMPARE_QUESTIONS)} paired questions × ${COMPARE_DEPTH} ids (pinned, and unpinned on every core); monitor ${group(MONITOR_TURNS)} turns of conversation log; the action ${group(ACTION_QUESTIONS)} paired questions, push event with a baseline file (pinned, and unpinned on every core); each at full size, 1/10 and 1/100`,
    '',
    markdownTable(...Object.values(resultTable(report.cases))),
  ];
  if (report.trecEval !== null && report.cases.some((found) => found.reference)) {
    lines.push('', `Against trec_eval (\`${report.trecEval}\`, same files, runs interleaved with rag-gate's):`, '');
    lines.push(markdownTable(...Object.values(ratioTable(report.cases, 'reference', 'ours/trec_eval'))));
  }
  if (report.against !== null && report.cases.some((found) => found.earlier)) {
    lines.push(
      '',
      `Against ${report.against.revision} (\`${report.against.sha.slice(0, 7)}\`), its committed \`dist/\`, each run right after this build's (this/that divides the medians; run by run is the median of each run's ratio, which the machine's drift moves less):`,
      '',
    );
    lines.push(markdownTable(...Object.values(ratioTable(report.cases, 'earlier', 'this/that'))));
  }
  lines.push('', 'Targets (issues 19 and 40):', '', markdownTable(...Object.values(targetTable(report.cases, report.scope))));
  if (report.judge !== null) lines.push('', report.judge.trimEnd());
  return `${lines.join('\n')}\n`;
}

/** `document` with what lies between BLOCK_START and BLOCK_END replaced by `block`; the rest is kept byte for byte. */
export function replaceBlock(document, block) {
  const from = document.indexOf(BLOCK_START);
  const to = document.indexOf(BLOCK_END);
  if (from < 0 || to < from || document.indexOf(BLOCK_START, from + 1) >= 0 || document.indexOf(BLOCK_END, to + 1) >= 0)
    throw new Error(`expected one ${BLOCK_START} … ${BLOCK_END} block`);
  return `${document.slice(0, from + BLOCK_START.length)}\n${block}${document.slice(to)}`;
}
