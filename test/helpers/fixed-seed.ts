import fc from 'fast-check';

/**
 * Setup file of the mutation runs (vitest.mutate.config.ts): one fast-check seed, so every mutant meets the same
 * generated cases as the dry run did, and a survivor is not luck of the draw.
 */
fc.configureGlobal({ seed: 20_260_518 });
