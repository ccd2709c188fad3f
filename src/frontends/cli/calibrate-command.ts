import { Command, Option } from 'commander';
import { writeFileAtomic } from '../../sources/write.js';
import { calibrate } from '../../judge/calibration.js';
import { SETTINGS } from '../../core/catalog/settings.js';
import { readLabels } from '../../judge/labels.js';
import { calibrationText } from '../../pipeline/judge.js';
import type { CommandContext } from './context.js';
import { kappaFloorOption } from './options.js';
import { EXIT } from './exit.js';
import { type JudgeClientCliOptions, addJudgeClientOptions, judgeClientFromOptions, withJudgeSetup } from './judge-command.js';
import { countingProgress } from './progress.js';

interface CalibrateOptions extends JudgeClientCliOptions {
  labels: string;
  out?: string;
  kappaFloor: number;
}

export function calibrateCommand(context: CommandContext, setExitCode: (code: number) => void): Command {
  const command = new Command('calibrate')
    .description("measure the judge against human labels (Cohen's kappa) and write a calibration record")
    .requiredOption(
      '--labels <file>',
      'JSON Lines of human labels: {"id","claim","context","human_verdict"} or {"id","question","answer","expected_answer","human_correct"}',
    )
    .option('--out <file>', 'write the calibration record (JSON) here')
    .addOption(
      new Option('--kappa-floor <kappa>', 'warn when kappa is below this (judge metrics may gate only at or above it)')
        .argParser(kappaFloorOption)
        .default(SETTINGS['kappa-floor'].parse(SETTINGS['kappa-floor'].default)),
    );
  return addJudgeClientOptions(command, 'calibrate')
    .option('--json', 'print the calibration as one JSON object on stdout')
    .action(async (options: CalibrateOptions) => {
      const code = await withJudgeSetup(context, async () => {
        const labels = await readLabels(options.labels);
        const client = judgeClientFromOptions(options);
        const progress = countingProgress(context, 'calibrating');
        const result = await calibrate(client, labels, { labelsFile: options.labels, onProgress: progress.update }).finally(progress.end);
        for (const warning of client.warnings) context.stderr(`rag-gate: warning: ${warning}\n`);
        const failureShare = result.total === 0 ? 0 : result.failures.length / result.total;
        const incomplete = failureShare > options.maxFailureShare;
        if (options.json) {
          context.stdout(
            `${JSON.stringify(
              {
                record: result.record,
                agreement: result.agreement,
                threeWay: result.threeWay,
                failures: result.failures,
                stats: client.stats,
                kappaFloor: options.kappaFloor,
                written: options.out !== undefined && !incomplete ? options.out : null,
              },
              null,
              2,
            )}\n`,
          );
        } else {
          context.stdout(calibrationText(client, result, options.kappaFloor));
        }
        if (incomplete) {
          context.stderr(
            `rag-gate: error: ${result.failures.length} of ${result.total} labels (${(failureShare * 100).toFixed(1)}%) could not be judged, more than the ` +
              `${(options.maxFailureShare * 100).toFixed(1)}% --max-failure-share allows; no calibration record is written from an incomplete run\n`,
          );
          return EXIT.gateFailed;
        }
        if (options.out !== undefined) {
          await writeFileAtomic(options.out, `${JSON.stringify(result.record, null, 2)}\n`);
          context.stderr(`rag-gate: calibration record written to ${options.out}\n`);
        } else if (!options.json) {
          context.stderr('rag-gate: note: no calibration record written; pass --out FILE to keep it\n');
        }
        const { kappa } = result.record;
        if (kappa === null || kappa < options.kappaFloor) {
          context.stderr(
            `rag-gate: warning: kappa ${kappa === null ? 'is undefined (both raters gave every item the same label)' : `${kappa.toFixed(3)} is below ${options.kappaFloor}`}: ` +
              `the judge does not agree with the human labels well enough, so its metrics will be reported but will not gate. ` +
              `Review the disagreements, then change the model or the prompt and calibrate again\n`,
          );
        }
        return EXIT.ok;
      });
      setExitCode(code);
    });
}
