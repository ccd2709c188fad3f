import { Command, CommanderError } from 'commander';
import { InputError } from '../io/errors.js';
import type { CommandContext } from './context.js';
import { evalCommand } from './eval-command.js';
import { trecCommand } from './trec-command.js';

/** Exit codes: 0 ok, 1 the gate failed, 2 bad input or usage. */
export const EXIT = { ok: 0, gateFailed: 1, badInput: 2 } as const;

/** Runs the CLI on `argv` (without node and script) and returns the exit code; never calls process.exit. */
export async function main(argv: readonly string[], context: CommandContext): Promise<number> {
  const program = new Command('rag-gate')
    .description('CI quality gate for retrieval-augmented generation: metrics, paired tests, PR comments')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: context.stdout, writeErr: context.stderr })
    .addCommand(evalCommand(context))
    .addCommand(trecCommand(context));
  for (const command of program.commands) command.exitOverride().configureOutput({ writeOut: context.stdout, writeErr: context.stderr });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    if (error instanceof InputError) {
      context.stderr(`rag-gate: error: bad input\n${error.message}\n`);
      return EXIT.badInput;
    }
    throw error;
  }
}
