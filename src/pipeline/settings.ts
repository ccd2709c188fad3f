import { SETTINGS, type SettingName, type SettingOrigin, type Settings, type SettingText, resolveSettings } from '../core/catalog/settings.js';
import { SettingError } from '../core/errors.js';
import { describeProblem, renderSettings } from '../render/settings-text.js';
import { type ConfigLayers, readConfigFile } from '../sources/config-file.js';

/** The settings of one run, each with where its value came from. */
export interface ResolvedSettings {
  readonly settings: Settings;
  readonly origins: Readonly<Record<SettingName, SettingOrigin>>;
  /** Each value as text, as it was given (or the default). */
  readonly texts: Readonly<Record<SettingName, string>>;
}

/**
 * The run's settings: what the front end was given (flags or inputs) over the config file's section for this
 * comment tag, over its top level, over the catalog's defaults. The config file is `config` (default
 * rag-gate.yml in the working directory, which in CI is the repository root); it must exist only when named.
 * Throws SettingError (every bad value, located) or InputError (a bad config file).
 */
export async function loadSettings(given: ReadonlyMap<SettingName, SettingText>): Promise<ResolvedSettings> {
  const tag = commentTag(given);
  const configText = given.get('config')?.text ?? SETTINGS.config.default;
  return resolveOver(given, await readConfigFile(configText.trim(), { required: given.has('config'), tag }));
}

/** The settings named, as a table of value and origin: --print-config, and the action's log. */
export function settingsText(names: readonly SettingName[], resolved: ResolvedSettings): string {
  return renderSettings(names, resolved.texts, resolved.origins);
}

/** The config file as the base branch has it: its bytes at the base commit, or null where it has none. */
export interface BaseConfigFile {
  /** How messages name it, e.g. `rag-gate.yml at 1a2b3c4`. */
  readonly name: string;
  readonly content: Buffer | null;
}

/**
 * The base branch's settings: the same flags or inputs (they come from the workflow, which the README has code
 * owners guard) over the base's config file, over the defaults.
 */
export async function loadBaseSettings(given: ReadonlyMap<SettingName, SettingText>, file: BaseConfigFile): Promise<ResolvedSettings> {
  const tag = commentTag(given);
  const layers =
    file.content === null ? { top: new Map(), section: new Map() } : await readConfigFile(file.name, { required: true, tag, content: file.content });
  return resolveOver(given, layers);
}

function commentTag(given: ReadonlyMap<SettingName, SettingText>): string {
  const tagText = given.get('comment-tag')?.text ?? SETTINGS['comment-tag'].default;
  try {
    return SETTINGS['comment-tag'].parse(tagText);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    throw new SettingError(
      describeProblem({ setting: 'comment-tag', origin: given.get('comment-tag')?.origin ?? { kind: 'default' }, message: error.message }),
    );
  }
}

function resolveOver(given: ReadonlyMap<SettingName, SettingText>, file: ConfigLayers): ResolvedSettings {
  const layers = [given, file.section, file.top];
  const { settings, origins } = resolveSettings(layers, describeProblem);
  const texts = {} as Record<SettingName, string>;
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    texts[name] = layers.map((layer) => layer.get(name)?.text).find((text) => text !== undefined) ?? SETTINGS[name].default;
  }
  return { settings, origins, texts };
}
