// One timed child process for `npm run bench`: wall time around the spawn; CPU time and peak RSS from GNU time when
// it exists.
import { spawn } from 'node:child_process';
import { closeSync, createReadStream, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';
const TASKSET = '/usr/bin/taskset';

/** True when runs can be pinned to one core (util-linux's taskset). */
export const pinningAvailable = existsSync(TASKSET);

/** True when GNU time can report the CPU time (`%U`, `%S`) and peak RSS (`%M`, in KiB) of a child. */
export const memoryMeasured = existsSync(GNU_TIME);

/** The last `bytes` bytes of a text file, for error messages. */
function tail(file, bytes = 2000) {
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  return text.length > bytes ? `…${text.slice(-bytes)}` : text;
}

/**
 * GNU time's output file: `%U %S %M` (user and system seconds, peak KiB) on the last line, preceded by "Command
 * exited with non-zero status N" or "Command terminated by signal N" when the command did not exit cleanly.
 */
function readTimeFile(file) {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const signal = /Command terminated by signal (\d+)/.exec(lines.join('\n'));
  const figures = /^(\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+)$/.exec(lines.at(-1)?.trim() ?? '');
  return {
    cpuSeconds: figures ? Number(figures[1]) + Number(figures[2]) : null,
    peakKiB: figures ? Number(figures[3]) : null,
    signal: signal ? Number(signal[1]) : null,
  };
}

/**
 * Runs `command args` once, as a user would from a shell. Standard output goes to `stdout` (a file path; /dev/null
 * by default) and standard error to `dir`/stderr.txt, so neither is a pipe or a terminal.
 * With `oneCore` it runs pinned to the first CPU (`taskset -c 0`), so that it cannot lean on a second idle core.
 * Returns { seconds, cpuSeconds and peakKiB (null without GNU time), code, signal, stderr } — `stderr` is a tail.
 */
export async function measure(command, args, { dir, cwd, env, stdout = '/dev/null', oneCore = false }) {
  const timeFile = join(dir, 'time.txt');
  const stderrFile = join(dir, 'stderr.txt');
  const [pinned, pinnedArgs] = oneCore ? [TASKSET, ['-c', '0', command, ...args]] : [command, args];
  const [file, argv] = memoryMeasured ? [GNU_TIME, ['-f', '%U %S %M', '-o', timeFile, pinned, ...pinnedArgs]] : [pinned, pinnedArgs];
  const out = openSync(stdout, 'w');
  const err = openSync(stderrFile, 'w');
  try {
    const start = process.hrtime.bigint();
    const { code, signal, end } = await new Promise((resolve, reject) => {
      const child = spawn(file, argv, { cwd, env, stdio: ['ignore', out, err] });
      child.once('error', reject);
      child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal, end: process.hrtime.bigint() }));
    });
    const seconds = Number(end - start) / 1e9;
    if (!memoryMeasured) return { seconds, cpuSeconds: null, peakKiB: null, code, signal, stderr: tail(stderrFile) };
    const timed = existsSync(timeFile) ? readTimeFile(timeFile) : { cpuSeconds: null, peakKiB: null, signal: null };
    // Under GNU time a killed command shows as exit status 128 + N; report the signal instead.
    const killed = timed.signal !== null;
    return {
      seconds,
      cpuSeconds: timed.cpuSeconds,
      peakKiB: timed.peakKiB,
      code: killed ? null : code,
      signal: killed ? `signal ${timed.signal}` : signal,
      stderr: tail(stderrFile),
    };
  } finally {
    closeSync(out);
    closeSync(err);
  }
}

/** Reads a file through once (so every timed run starts with it in the page cache) and counts its lines. */
export async function scanFile(path) {
  let lines = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  return lines;
}
