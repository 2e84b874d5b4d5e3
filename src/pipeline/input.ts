import type { z } from 'zod';
import { BadInputError } from '../errors.js';
import { describeIssues, fieldName } from '../shared/issues.js';
import type { JsonObject } from '../shared/objects.js';

/**
 * Keys that name an object's prototype machinery: merged into a plain object they can change what every object
 * inherits, and parsers disagree on them (zod drops `__proto__`), so they are refused wherever they appear.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Objects and lists within objects and lists, the body counting as the first: no operation's input comes near, and a
 * walk through a body nested without bound (JSON.parse takes 100,000 levels) would run out of stack.
 */
const MAX_INPUT_DEPTH = 64;
/** A path at the depth limit is long and says little past its start. */
const MAX_NAMED_PATH = 40;

function shortFieldName(path: readonly PropertyKey[]): string {
  const name = fieldName(path);
  return name.length > MAX_NAMED_PATH ? `${name.slice(0, MAX_NAMED_PATH)}…` : name;
}

/**
 * Refuses what the schema cannot see: nesting deeper than MAX_INPUT_DEPTH, reserved keys at any depth, and strings
 * holding a lone UTF-16 surrogate (JSON allows `"\ud800"`; stored, it would silently become U+FFFD).
 */
function refuseUnsafeValues(value: unknown, path: PropertyKey[]): void {
  if (typeof value === 'string') {
    if (!value.isWellFormed()) throw BadInputError.field(fieldName(path), 'must not hold a lone UTF-16 surrogate (send well-formed Unicode)');
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (path.length >= MAX_INPUT_DEPTH) throw BadInputError.field(shortFieldName(path), `nests deeper than ${MAX_INPUT_DEPTH} levels of objects and lists`);
  if (Array.isArray(value)) {
    value.forEach((item, index) => refuseUnsafeValues(item, [...path, index]));
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (RESERVED_KEYS.has(key)) throw BadInputError.field(fieldName([...path, key]), 'is a reserved key name and not accepted anywhere in an input');
    if (!key.isWellFormed()) throw BadInputError.field(fieldName(path), 'has a key holding a lone UTF-16 surrogate (send well-formed Unicode)');
    refuseUnsafeValues(item, [...path, key]);
  }
}

export function parseInput(schema: z.ZodObject, raw: unknown): JsonObject {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw BadInputError.field('body', 'must be a JSON object');
  refuseUnsafeValues(raw, []);
  // reportInput tells a missing field (input undefined) from a wrong one; the input never leaves this module.
  const result = schema.safeParse(raw, { reportInput: true });
  if (!result.success) throw new BadInputError(describeIssues(result.error.issues));
  return result.data;
}
