/** Exit codes: 0 ok (or the gate passed), 1 the gate failed, 2 bad input or usage. */
export const EXIT = { ok: 0, gateFailed: 1, badInput: 2 } as const;
