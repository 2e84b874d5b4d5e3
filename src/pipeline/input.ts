import type { z } from 'zod';
import { BadInputError } from '../errors.js';
import type { JsonObject } from '../../tools/define.js';

type Issue = z.core.$ZodIssue;

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.reduce<string>((name, part) => (typeof part === 'number' ? `${name}[${part}]` : name === '' ? String(part) : `${name}.${String(part)}`), '');
}

function unit(origin: string | undefined, count: number | bigint): string {
  if (origin === 'string') return ` character${count === 1 ? '' : 's'}`;
  if (origin === 'array' || origin === 'set') return ` item${count === 1 ? '' : 's'}`;
  return '';
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
};

/** One issue as `rule`, written for the person or agent who has to fix the call. */
function rule(issue: Issue): string {
  if ('input' in issue && issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) {
    return issue.code === 'invalid_type' && issue.expected === 'never' ? issue.message : 'is required';
  }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'never') return issue.message;
      return `must be ${ARTICLE[issue.expected] ?? issue.expected}`;
    case 'too_big':
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set') {
        return `must have at most ${issue.maximum}${unit(issue.origin, issue.maximum)}`;
      }
      return `must be at most ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set') {
        return `must have at least ${issue.minimum}${unit(issue.origin, issue.minimum)}`;
      }
      return `must be at least ${issue.minimum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_format':
      if (!issue.message.startsWith('Invalid')) return issue.message;
      if (issue.format === 'email') return 'must be an email address';
      if (issue.format === 'url') return 'must be an absolute URL';
      return `must be a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

export function describeIssues(issues: readonly Issue[]): string {
  const parts: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) parts.push(`${fieldName([...issue.path, key])}: is not a field of this operation`);
    } else {
      parts.push(`${fieldName(issue.path)}: ${rule(issue)}`);
    }
  }
  return parts.join('; ');
}

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
