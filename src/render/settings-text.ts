import type { SettingName, SettingOrigin, SettingProblem } from '../core/catalog/settings.js';
import { redactor } from '../core/redact.js';
import { textTable } from './text-table.js';

/** A URL's `user:password@` (the judge's base URL may carry one) is never printed: the action logs these settings. */
const redactUserinfo = redactor([]);

/** Where a value came from, in words: `--k`, `input "k"`, `rag-gate.yml:3`, `default`. */
export function describeOrigin(origin: SettingOrigin): string {
  switch (origin.kind) {
    case 'flag':
      return origin.flag;
    case 'input':
      return 'input';
    case 'file':
      return `${origin.file}:${origin.line}${origin.section === undefined ? '' : ` (gates.${origin.section})`}`;
    case 'default':
      return 'default';
  }
}

/** A bad value, located: `option --k: …`, `input "k": …`, `rag-gate.yml:3: k: …`. */
export function describeProblem(problem: SettingProblem): string {
  const { origin, setting, message } = problem;
  switch (origin.kind) {
    case 'flag':
      return `option ${origin.flag}: ${message}`;
    case 'input':
      return `input "${setting}": ${message}`;
    case 'file':
      return `${origin.file}:${origin.line}: ${origin.section === undefined ? '' : `gates.${origin.section}.`}${setting}: ${message}`;
    case 'default':
      return `${setting}: ${message}`;
  }
}

/** `--print-config`: every setting with its value and where it came from. */
export function renderSettings(
  names: readonly SettingName[],
  texts: Readonly<Record<SettingName, string>>,
  origins: Readonly<Record<SettingName, SettingOrigin>>,
): string {
  const rows = names.map((name) => [name, redactUserinfo(texts[name].split('\n').filter(Boolean).join(', ')) || '(none)', describeOrigin(origins[name])]);
  return `${textTable([['setting', 'value', 'from'], ...rows])}\n`;
}
