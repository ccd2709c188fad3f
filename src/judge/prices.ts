import type { Price } from '../core/catalog/settings.js';

/**
 * OpenAI's list prices of the chat models a judge is usually run with, in US dollars per million tokens (input,
 * output), from openai.com/api/pricing as of 2025; the Batch API costs half of them. Prices change: `--price`
 * (the action's `judge-price`) wins, and the summary says which was used. A model not listed has no known price.
 */
const LIST_PRICES: Readonly<Record<string, readonly [input: number, output: number]>> = {
  'gpt-4o-mini': [0.15, 0.6],
  'gpt-4o': [2.5, 10],
  'gpt-4.1': [2, 8],
  'gpt-4.1-mini': [0.4, 1.6],
  'gpt-4.1-nano': [0.1, 0.4],
  'gpt-5': [1.25, 10],
  'gpt-5-mini': [0.25, 2],
  'gpt-5-nano': [0.05, 0.4],
  'o4-mini': [1.1, 4.4],
};

/** The Batch API's price as a share of the synchronous one (OpenAI: 50% off). */
export const BATCH_PRICE_SHARE = 0.5;

/** Prices per million tokens and where they came from. */
export interface PriceInForce extends Price {
  readonly source: 'option' | 'list';
  readonly model: string;
}

/** The price of `model`: the option's, else the list's (a dated model name such as gpt-4o-mini-2024-07-18 is its model's), else none. */
export function priceOf(model: string, option: Price | undefined): PriceInForce | undefined {
  if (option !== undefined) return { ...option, source: 'option', model };
  const listed = LIST_PRICES[model] ?? LIST_PRICES[model.replace(/-\d{4}-\d{2}-\d{2}$/, '')];
  if (listed === undefined) return undefined;
  const [input, output] = listed;
  return { input, output, batchInput: input * BATCH_PRICE_SHARE, batchOutput: output * BATCH_PRICE_SHARE, source: 'list', model };
}

/** What tokens cost, in dollars, at the synchronous and at the batch price. */
export function costOf(price: Price, promptTokens: number, completionTokens: number): { readonly sync: number; readonly batch: number } {
  const million = 1_000_000;
  return {
    sync: (promptTokens * price.input + completionTokens * price.output) / million,
    batch: (promptTokens * price.batchInput + completionTokens * price.batchOutput) / million,
  };
}
