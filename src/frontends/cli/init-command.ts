import { access, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { RESULTS_FORMATS_READ } from '../../core/catalog/formats.js';
import { SETTINGS } from '../../core/catalog/settings.js';
import { SettingError } from '../../core/errors.js';
import type { FieldMap } from '../../core/record.js';
import { initExistsError, initPlan } from '../../pipeline/init.js';
import { writeFileAtomic } from '../../sources/write.js';
import type { CommandContext } from './context.js';

declare const RAG_GATE_VERSION: string;

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

function shardCount(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1 || value > 256) throw new InvalidArgumentError('must be a whole number from 1 to 256.');
  return value;
}

const collect = (value: string, previous: readonly string[]) => [...previous, value];

/** The --field mappings, parsed as the `fields` setting's are; a bad one names the option. */
function fieldMap(given: readonly string[]): FieldMap {
  try {
    return SETTINGS.fields.parse(given.join('\n'));
  } catch (error) {
    if (error instanceof SettingError) throw new SettingError(`option --field: ${error.message}`);
    throw error;
  }
}

interface InitOptions {
  readonly results: string;
  readonly field: readonly string[];
  readonly dir: string;
  readonly shards: number;
  readonly branch: string;
  readonly force?: boolean;
  readonly dryRun?: boolean;
}

export function initCommand(context: CommandContext): Command {
  return new Command('init')
    .description('read a results file, propose the settings with the reasons, and write rag-gate.yml and the GitHub workflow')
    .requiredOption('--results <file>', `a results file your evaluation wrote (${RESULTS_FORMATS_READ}); its format is detected as eval detects it`)
    .addOption(
      new Option('--field <ours=yours>', 'read your field as ours, where init cannot tell (repeatable): --field question=prompt')
        .argParser(collect)
        .default([], 'none'),
    )
    .addOption(new Option('--dir <dir>', 'the repository root to write into').default('.', 'the current directory'))
    .option('--shards <n>', 'run the pipeline as a matrix of n shards, gathered by a gate job', shardCount, 1)
    .addOption(new Option('--branch <name>', 'the default branch, whose push runs are the baseline').default('main', 'main'))
    .option('--force', 'overwrite rag-gate.yml and the workflow when they exist')
    .option('--dry-run', 'print both files and write nothing')
    .action(async (options: InitOptions) => {
      const plan = await initPlan({
        results: options.results,
        fields: fieldMap(options.field),
        dir: options.dir,
        shards: options.shards,
        branch: options.branch,
        action: `rag-gate/rag-gate@v${RAG_GATE_VERSION.split('.')[0]}`,
        command: ['rag-gate init --results', options.results, ...(options.shards > 1 ? ['--shards', String(options.shards)] : [])].join(' '),
        dryRun: options.dryRun === true,
      });
      if (options.dryRun) {
        context.stdout([plan.text, ...plan.files.flatMap((file) => [`--- ${file.path}`, file.text])].join('\n'));
        return;
      }
      const before = await Promise.all(plan.files.map((file) => exists(file.path)));
      if (!options.force && before.some(Boolean)) throw initExistsError(plan.files.filter((_, i) => before[i]).map((file) => file.path));
      const written: string[] = [];
      try {
        for (const file of plan.files) {
          await mkdir(dirname(file.path), { recursive: true });
          await writeFileAtomic(file.path, file.text);
          written.push(file.path);
        }
      } catch (error) {
        // Both files or neither: a file this run created goes again.
        await Promise.all(written.filter((path) => !before[plan.files.findIndex((file) => file.path === path)]).map((path) => rm(path, { force: true })));
        throw error;
      }
      context.stdout(plan.text);
    });
}
