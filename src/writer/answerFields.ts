import { z } from 'zod';

/**
 * Text the model writes, at most `maxChars` long. The bound is a refinement, not `.max()`: strict structured-output
 * modes accept only a subset of JSON Schema and refuse a schema with `maxLength`, so the limit travels in the
 * description and the answer is checked here (an answer over it is asked for once more).
 */
export function modelText(maxChars: number, what: string) {
  return z
    .string()
    .trim()
    .refine((value) => value.length >= 1 && value.length <= maxChars, `must be 1 to ${maxChars} characters`)
    .describe(`${what}; 1 to ${maxChars} characters`);
}

/** A list the model writes, of `maxItems` texts at most. */
export function modelTextList(maxItems: number, maxChars: number, what: string) {
  return z.array(modelText(maxChars, 'One item')).max(maxItems).describe(`${what}; at most ${maxItems} items of up to ${maxChars} characters`);
}
