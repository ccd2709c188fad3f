/** Where a command writes; the CLI entry passes the process streams, tests pass collectors. */
export interface CommandContext {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}
