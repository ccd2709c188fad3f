/** Where a command writes; the CLI entry passes the process streams, tests pass collectors. */
export interface CommandContext {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The bundled entry file, to start reader threads from; without it both runs are read on this thread. */
  readonly readerEntry?: URL;
}
