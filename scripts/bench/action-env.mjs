// The environment a GitHub runner gives `node dist/index.js`, for timing the action outside a runner.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function unquote(value) {
  if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replaceAll("''", "'");
  if (value.startsWith('"') && value.endsWith('"')) return value.slice(1, -1);
  return value;
}

/**
 * Every input's `default:` from action.yml (a two-level reader of just this shape, not a YAML parser).
 * An expression such as `${{ github.token }}` is the runner's to fill in; here it is empty.
 */
export function actionDefaults(file) {
  const defaults = {};
  let section = '';
  let input = null;
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (/^\S/.test(line)) {
      section = line.replace(/:.*$/, '');
      input = null;
      continue;
    }
    if (section !== 'inputs') continue;
    const name = /^ {2}([\w-]+):\s*$/.exec(line);
    if (name) {
      input = name[1];
      defaults[input] = '';
      continue;
    }
    const value = /^ {4}default:\s*(.*?)\s*$/.exec(line);
    if (value && input !== null) defaults[input] = /^\$\{\{.*\}\}$/.test(value[1]) ? '' : unquote(value[1]);
  }
  return defaults;
}

/** `INPUT_<NAME>` as @actions/core reads it: upper case, spaces as underscores, hyphens kept. */
const inputVariable = (name) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;

/**
 * A push run's environment in `dir` (an empty directory): the event file, empty GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, RUNNER_TEMP, and every input (the defaults overridden by `inputs`).
 * Inherited INPUT_*, GITHUB_* and RUNNER_* variables are dropped. The API URL points at a closed port:
 * a push run with a baseline file must not call GitHub.
 */
export function actionEnv({ dir, workspace, defaults, inputs }) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(INPUT_|GITHUB_|RUNNER_)/.test(key)));
  const eventPath = join(dir, 'event.json');
  const output = join(dir, 'github_output');
  const summary = join(dir, 'step_summary');
  const runnerTemp = join(dir, 'runner_temp');
  writeFileSync(eventPath, '{}\n');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  mkdirSync(runnerTemp);
  for (const [name, value] of Object.entries({ ...defaults, ...inputs })) env[inputVariable(name)] = value;
  Object.assign(env, {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'octo/bench',
    GITHUB_RUN_ID: '1',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_API_URL: 'http://127.0.0.1:9',
    RUNNER_TEMP: runnerTemp,
  });
  return { env, output };
}

/** The `verdict` output from a GITHUB_OUTPUT file (`name<<DELIMITER` blocks, or `name=value` lines), or null. */
export function readVerdict(outputFile) {
  const lines = readFileSync(outputFile, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('verdict<<')) return lines[i + 1] ?? '';
    if (lines[i].startsWith('verdict=')) return lines[i].slice('verdict='.length);
  }
  return null;
}
