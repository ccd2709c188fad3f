import { type Command, InvalidArgumentError, Option } from 'commander';
import { cliSettings, SETTINGS, type SettingCommand, type SettingName, type SettingRow, type SettingText, splitList } from '../../core/catalog/settings.js';
import { SettingError } from '../../core/errors.js';
import { loadSettings, type ResolvedSettings, settingsText } from '../../pipeline/settings.js';
import type { CommandContext } from './context.js';
import { parseRetrievalMetric, type RetrievalMetric } from '../../core/catalog/retrieval-metrics.js';

/** Turns a core parser into a commander argument parser, so a bad value is reported against its option. */
export function argParser<T>(parse: (text: string) => T): (text: string) => T {
  return (text) => {
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof SettingError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

export const cutoffsOption = argParser(SETTINGS.k.parse);
export const kappaFloorOption = argParser(SETTINGS['kappa-floor'].parse);

/** `--metrics ndcg@10,map`: retrieval metric names, in the order given, without repeats. */
export const metricsOption = argParser((text: string): RetrievalMetric[] => {
  const metrics = splitList(text).map(parseRetrievalMetric);
  if (metrics.length === 0) throw new SettingError('give at least one metric, for example ndcg@10,map');
  return [...new Map(metrics.map((metric) => [metric.name, metric])).values()];
});

function flagOf(name: SettingName, command: SettingCommand): string {
  return (SETTINGS[name] as SettingRow<unknown>).cli!.flags[command]!;
}

/**
 * Adds a command's options from the settings catalog. They carry no commander default: a value given on the
 * command line is told apart from the config file's and the default, which the description names.
 */
export function addSettingOptions(command: Command, name: SettingCommand): Command {
  for (const setting of cliSettings(name)) {
    const row: SettingRow<unknown> = SETTINGS[setting];
    const fallback = row.default === '' ? '' : ` (default: ${row.default})`;
    const option = new Option(flagOf(setting, name), `${row.description}${fallback}`);
    if (row.cli?.repeatable === true) option.argParser((text: string, previous: string[] | undefined) => [...(previous ?? []), text]);
    command.addOption(option);
  }
  return command.option('--print-config', 'print every setting with its value and where it came from, and exit');
}

/**
 * The options of a command that reads no config file (`trec`): each setting that names the command, parsed as it
 * is given, with the catalog's default.
 */
export function addParsedSettingOptions(command: Command, name: SettingCommand): Command {
  for (const setting of cliSettings(name)) {
    const row: SettingRow<unknown> = SETTINGS[setting];
    command.addOption(
      new Option(flagOf(setting, name), row.description).argParser(argParser(row.parse)).default(row.parse(row.default), row.default || 'none'),
    );
  }
  return command;
}

/** The settings given on the command line, as text, each with the flag that gave it. */
export function givenSettings(command: Command, name: SettingCommand): Map<SettingName, SettingText> {
  const given = new Map<SettingName, SettingText>();
  const values = command.opts<Record<string, unknown>>();
  for (const setting of cliSettings(name)) {
    const flag = flagOf(setting, name);
    const option = command.options.find((o) => o.flags === flag)!;
    const value = values[option.attributeName()] as string | string[] | boolean | undefined;
    if (value === undefined) continue;
    given.set(setting, { text: Array.isArray(value) ? value.join('\n') : String(value), origin: { kind: 'flag', flag: option.long ?? flag } });
  }
  return given;
}

/**
 * A command's settings: its flags (`given`) over the config file over the defaults. With `--print-config` it prints
 * them instead and returns undefined: the command has nothing more to do.
 */
export async function commandSettings(
  command: Command,
  name: SettingCommand,
  context: CommandContext,
): Promise<{ given: Map<SettingName, SettingText>; resolved: ResolvedSettings } | undefined> {
  const given = givenSettings(command, name);
  const resolved = await loadSettings(given);
  if (command.opts<{ printConfig?: boolean }>().printConfig !== true) return { given, resolved };
  context.stdout(settingsText(cliSettings(name), resolved));
  return undefined;
}
