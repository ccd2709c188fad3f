import { SETTINGS, type SettingName, type SettingOrigin, type Settings, type SettingText, resolveSettings } from '../core/catalog/settings.js';
import { SettingError } from '../core/errors.js';
import { describeProblem } from '../render/settings-text.js';
import { readConfigFile } from '../sources/config-file.js';

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
  const tagText = given.get('comment-tag')?.text ?? SETTINGS['comment-tag'].default;
  const configText = given.get('config')?.text ?? SETTINGS.config.default;
  let tag: string;
  try {
    tag = SETTINGS['comment-tag'].parse(tagText);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    throw new SettingError(
      describeProblem({ setting: 'comment-tag', origin: given.get('comment-tag')?.origin ?? { kind: 'default' }, message: error.message }),
    );
  }
  const file = await readConfigFile(configText.trim(), { required: given.has('config'), tag });
  const layers = [given, file.section, file.top];
  const { settings, origins } = resolveSettings(layers, describeProblem);
  const texts = {} as Record<SettingName, string>;
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    texts[name] = layers.map((layer) => layer.get(name)?.text).find((text) => text !== undefined) ?? SETTINGS[name].default;
  }
  return { settings, origins, texts };
}
