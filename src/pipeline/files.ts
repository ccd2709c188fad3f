import { isAbsolute } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { SettingName, SettingOrigin } from '../core/catalog/settings.js';
import { SettingError } from '../core/errors.js';
import { describeProblem } from '../render/settings-text.js';

/**
 * The files of a results setting, sorted: several files are shards of one run. A plain path is taken as it is,
 * so that a missing file is reported by the reader with its own words; a glob must match at least one file.
 */
export async function resultFiles(pattern: string, setting: SettingName, origin: SettingOrigin): Promise<string[]> {
  if (!isDynamicPattern(pattern)) return [pattern];
  // Paths as the user wrote them: relative to the working directory, or absolute.
  const files = (await glob(pattern, { absolute: isAbsolute(pattern), onlyFiles: true, expandDirectories: false })).sort();
  if (files.length === 0) throw new SettingError(describeProblem({ setting, origin, message: `no file matches "${pattern}"` }));
  return files;
}
