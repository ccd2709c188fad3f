import { Command, CommanderError } from 'commander';
import { InputError, SettingError } from '../../core/errors.js';
import { calibrateCommand } from './calibrate-command.js';
import type { CommandContext } from './context.js';
import { compareCommand } from './compare-command.js';
import { evalCommand } from './eval-command.js';
import { EXIT } from './exit.js';
import { mappedStack } from '../../pipeline/stack.js';
import { holdoutCommand } from './holdout-command.js';
import { initCommand } from './init-command.js';
import { historyCommand } from './history-command.js';
import { judgeCommand } from './judge-command.js';
import { monitorCommand } from './monitor-command.js';
import { splitCommand } from './split-command.js';
import { trecCommand } from './trec-command.js';

/** package.json's version, put in by scripts/build.mjs (and vitest.config.ts), so nothing reads package.json at run time. */
declare const RAG_GATE_VERSION: string;

/** Runs the CLI on `argv` (without node and script) and returns the exit code; never calls process.exit. */
export async function main(argv: readonly string[], context: CommandContext): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('rag-gate')
    .description('CI quality gate for retrieval-augmented generation: metrics, paired tests, PR comments')
    .version(RAG_GATE_VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    // Each command's options are its own, so that `monitor sample --logs …` gives --logs to sample.
    .enablePositionalOptions()
    .configureOutput({ writeOut: context.stdout, writeErr: context.stderr })
    .addCommand(initCommand(context))
    .addCommand(evalCommand(context))
    .addCommand(trecCommand(context))
    .addCommand(compareCommand(context, (code) => (exitCode = code)))
    .addCommand(judgeCommand(context, (code) => (exitCode = code)))
    .addCommand(calibrateCommand(context, (code) => (exitCode = code)))
    .addCommand(splitCommand(context))
    .addCommand(holdoutCommand(context))
    .addCommand(historyCommand(context))
    .addCommand(monitorCommand(context, (code) => (exitCode = code)));
  const every = (commands: readonly Command[]): Command[] => commands.flatMap((command) => [command, ...every(command.commands)]);
  for (const command of every(program.commands)) command.exitOverride().configureOutput({ writeOut: context.stdout, writeErr: context.stderr });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    if (error instanceof InputError) {
      context.stderr(`rag-gate: error: bad input\n${error.message}\n`);
      return EXIT.badInput;
    }
    if (error instanceof SettingError) {
      context.stderr(`rag-gate: error: ${error.message}\n`);
      return EXIT.badInput;
    }
    // Anything else is ours; it must not read as "the gate failed" (exit 1).
    context.stderr(`rag-gate: internal error: ${mappedStack(error)}\n`);
    return EXIT.badInput;
  }
}
