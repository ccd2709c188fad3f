import { SETTINGS, type SettingName, type SettingRow, type SettingText } from '../../core/catalog/settings.js';

/** The settings that are action inputs: every row of the catalog that action.yml declares. */
export const INPUT_NAMES: readonly SettingName[] = (Object.keys(SETTINGS) as SettingName[]).filter(
  (name) => (SETTINGS[name] as SettingRow<unknown>).action !== false,
);

export type InputName = SettingName;

/**
 * The inputs the workflow set. action.yml declares no defaults (but the token's), so an empty input is one the
 * workflow left out: the config file's value or the catalog's default applies.
 */
export function givenInputs(getInput: (name: InputName) => string): Map<SettingName, SettingText> {
  const given = new Map<SettingName, SettingText>();
  for (const name of INPUT_NAMES) {
    const text = getInput(name);
    if (text.trim() !== '') given.set(name, { text, origin: { kind: 'input' } });
  }
  return given;
}
