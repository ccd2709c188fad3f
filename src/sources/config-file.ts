import { readFile } from 'node:fs/promises';
import { isMap, isScalar, LineCounter, parseDocument, type Node, visit } from 'yaml';
import { z } from 'zod';
import { SETTINGS, type SettingName, type SettingRow, type SettingText } from '../core/catalog/settings.js';
import { closestName } from '../core/closest.js';
import { InputError, type InputProblem } from '../core/errors.js';
import { readFailure } from './read-problems.js';
import { utf8Text } from './utf8.js';
import { lineOverSize, MAX_YAML_DEPTH, OVER_SIZE_MESSAGE, yamlBoundProblem } from './yaml-bounds.js';

/**
 * `rag-gate.yml`: the settings catalog's keys at the top level, and optionally `gates:`, one section per comment
 * tag for a repository with several gates. A section's keys override the top level's.
 */

/** The file's settings: the top level and the section of the selected gate, each value with file and line. */
export interface ConfigLayers {
  readonly top: ReadonlyMap<SettingName, SettingText>;
  readonly section: ReadonlyMap<SettingName, SettingText>;
}

const GATES_KEY = 'gates';

/** Settings that may be written in the file, and how a list value becomes the setting's text. */
const FILE_KEYS: ReadonlyMap<string, SettingName> = new Map(
  (Object.keys(SETTINGS) as SettingName[]).filter((name) => (SETTINGS[name] as SettingRow<unknown>).config).map((name) => [name, name]),
);
const NEWLINE_LISTS: ReadonlySet<SettingName> = new Set(['floors', 'judge-calibration']);

const scalar = z.union([z.string(), z.number(), z.boolean()], { error: 'must be a text, a number, true/false or a list of those' });
const value = z.union([scalar, z.array(scalar, { error: 'must be a list of texts or numbers' })], {
  error: 'must be a text, a number, true/false or a list of those',
});
/** The settings that may also be a mapping, written as `key=value` lines. */
const mappings = {
  fields: z.union([value, z.record(z.string(), scalar)], { error: 'must be a mapping such as {question: prompt}, or a list of ours=yours' }).optional(),
};
const settingsMap = z.object(mappings, { error: 'must be a map of settings, such as "retrieval-ok: hit@5"' }).catchall(value);
const fileSchema = z
  .object({ ...mappings, [GATES_KEY]: z.record(z.string(), settingsMap, { error: 'must map each comment tag to its settings' }).optional() })
  .catchall(value);

/**
 * Reads the config file. A missing file is no error unless `required` (it was named by `--config` or the
 * `config` input). Every problem names the file, the line and the key; all are reported together.
 */
export async function readConfigFile(file: string, options: { required: boolean; tag: string; content?: Buffer }): Promise<ConfigLayers> {
  let bytes: Buffer;
  try {
    // `content`: the file as read elsewhere (the base branch's, through the API), named `file` in messages.
    bytes = options.content ?? (await readFile(file));
  } catch (error) {
    if (!options.required && (error as NodeJS.ErrnoException).code === 'ENOENT') return { top: new Map(), section: new Map() };
    throw readFailure(file, error);
  }
  const overSize = lineOverSize(bytes);
  if (overSize !== null) throw InputError.single({ file, line: overSize, message: OVER_SIZE_MESSAGE });
  const text = utf8Text(file, bytes);
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const lineOf = (node: Node | null | undefined) => (node?.range ? lines.linePos(node.range[0]).line : undefined);
  /** The line of a key (of its value for a list item): where a reader looks for the setting. */
  const keyLine = (path: readonly (string | number)[]) => {
    const parent = path.length === 1 ? document.contents : document.getIn(path.slice(0, -1), true);
    const pair = isMap(parent) ? parent.items.find((item) => isScalar(item.key) && item.key.value === path.at(-1)) : undefined;
    return pair !== undefined && isScalar(pair.key) ? lineOf(pair.key) : lineOf(document.getIn(path, true) as Node | undefined);
  };
  if (document.errors.length > 0) {
    const firstLine = (message: string) => message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    // yaml reports a nesting that overflowed its stack as RESOURCE_EXHAUSTION, in the words of the RangeError.
    const words = (error: (typeof document.errors)[number]) =>
      error.code === 'RESOURCE_EXHAUSTION'
        ? `nests more than ${MAX_YAML_DEPTH} levels deep; a config file needs 5`
        : `not valid YAML: ${firstLine(error.message)}`;
    throw new InputError(document.errors.map((error) => ({ file, line: error.linePos?.[0].line, message: words(error) })));
  }
  const problems: InputProblem[] = [];
  const root = document.contents;
  if (root === null || (isScalar(root) && root.value === null)) return { top: new Map(), section: new Map() };
  if (!isMap(root)) throw InputError.single({ file, line: lineOf(root), message: 'must be a map of settings, such as "retrieval-ok: hit@5"' });

  const bound = yamlBoundProblem(document, (node) => lineOf(node));
  if (bound !== null) throw InputError.single({ file, ...bound });
  let data: unknown;
  try {
    // yaml's own guard against alias bombs, at its default, behind the bounds above.
    data = document.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (error) {
    let alias: Node | undefined;
    visit(document, { Alias: (_, node) => void (alias ??= node) });
    throw InputError.single({ file, line: alias === undefined ? undefined : lineOf(alias), message: `not valid YAML: ${(error as Error).message}` });
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push({ file, line: keyLine(issue.path as (string | number)[]), field: issue.path.join('.') || undefined, message: issue.message });
    }
    throw new InputError(problems);
  }

  /** The settings of one map (the top level or a section), checking each key against the catalog. */
  const layer = (values: Record<string, unknown>, path: string[], section?: string): Map<SettingName, SettingText> => {
    const out = new Map<SettingName, SettingText>();
    for (const [key, raw] of Object.entries(values)) {
      if (path.length === 0 && key === GATES_KEY) continue;
      const where = { file, line: keyLine([...path, key]), field: [...path, key].join('.') };
      const name = FILE_KEYS.get(key);
      if (name === undefined) {
        const known = Object.hasOwn(SETTINGS, key);
        const hint = closestName(key, FILE_KEYS.keys());
        problems.push({
          ...where,
          message: known
            ? `cannot be set in ${file}: give it as the action input or the command-line option`
            : `is not a setting${hint === undefined ? '' : `; did you mean "${hint}"?`} (every setting is listed in docs/github-actions.md under "Inputs")`,
        });
        continue;
      }
      const mapping = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
      const text = Array.isArray(raw)
        ? raw.map(String).join(NEWLINE_LISTS.has(name) ? '\n' : ',')
        : mapping
          ? Object.entries(raw)
              .map(([key, item]) => `${key}=${String(item)}`)
              .join('\n')
          : String(raw);
      out.set(name, { text, origin: { kind: 'file', file, line: where.line ?? 1, ...(section === undefined ? {} : { section }) } });
    }
    return out;
  };

  const { [GATES_KEY]: gates, ...top } = parsed.data;
  const topLayer = layer(top, []);
  let sectionLayer = new Map<SettingName, SettingText>();
  if (gates !== undefined) {
    const sections = Object.keys(gates);
    const selected = gates[options.tag];
    if (selected === undefined) {
      problems.push({
        file,
        line: keyLine([GATES_KEY]),
        field: GATES_KEY,
        message: `has no section "${options.tag}" (the comment tag of this run); it has ${sections.map((s) => `"${s}"`).join(', ')}: set comment-tag to one of them`,
      });
    } else {
      sectionLayer = layer(selected, [GATES_KEY, options.tag], options.tag);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return { top: topLayer, section: sectionLayer };
}

/** The base branch's config file given to the CLI (`--base-config`), as loadBaseSettings reads it. */
export async function baseConfigFile(file: string): Promise<{ name: string; content: Buffer }> {
  try {
    return { name: file, content: await readFile(file) };
  } catch (error) {
    throw readFailure(file, error);
  }
}
