import { everyOutput, type OutputRun, type OutputValues } from '../../core/catalog/outputs.js';
import type { ActionRuntime } from './runtime.js';

/** Sets every declared output once, in catalog order: this run's values, and the rest as the catalog has them. */
export function setOutputs<R extends OutputRun>(runtime: Pick<ActionRuntime, 'setOutput'>, run: R, values: OutputValues<R>): void {
  for (const [name, value] of everyOutput(run, values)) runtime.setOutput(name, value);
}
