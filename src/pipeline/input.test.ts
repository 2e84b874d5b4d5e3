import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../errors.js';
import { parseInput } from './input.js';

const schema = z.strictObject({
  name: z.string().min(1).max(5),
  tone: z.enum(['friendly', 'technical']).optional(),
  color: z.string().regex(/^#[0-9A-F]{6}$/i, 'must be a hex color of the form #RRGGBB').optional(),
  tags: z.array(z.string()).max(1).optional(),
  authors: z.array(z.strictObject({ name: z.string() })).optional(),
  count: z.number().int().optional(),
  email: z.email().optional(),
});

function message(raw: unknown): string {
  try {
    parseInput(schema, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(BadInputError);
    return (error as BadInputError).message;
  }
  throw new Error('expected a 400');
}

describe('bad input messages name the field and the rule', () => {
  it.each([
    [{}, 'name: is required'],
    [{ name: 5 }, 'name: must be a string'],
    [{ name: '' }, 'name: must not be empty'],
    [{ name: 'toolong' }, 'name: must have at most 5 characters'],
    [{ name: 'a', tone: 'angry' }, 'tone: must be one of friendly, technical'],
    [{ name: 'a', color: 'red' }, 'color: must be a hex color of the form #RRGGBB'],
    [{ name: 'a', tags: ['x', 'y'] }, 'tags: must have at most 1 item'],
    [{ name: 'a', authors: [{ name: 'x' }, {}] }, 'authors[1].name: is required'],
    [{ name: 'a', count: 1.5 }, 'count: must be a whole number'],
    [{ name: 'a', email: 'nope' }, 'email: must be an email address'],
    [{ name: 'a', extra: 1 }, 'extra: is not a field of this operation'],
    [[], 'body: must be a JSON object'],
    [null, 'body: must be a JSON object'],
  ])('%j → %s', (raw, expected) => {
    expect(message(raw)).toBe(expected);
  });

  it('says a missing enum or record is required rather than naming its type', () => {
    const strict = z.strictObject({ type: z.enum(['tone', 'style']), meta: z.record(z.string(), z.string()) });
    expect(() => parseInput(strict, {})).toThrow('type: is required; meta: is required');
    expect(() => parseInput(strict, { type: 'tone', meta: 'x' })).toThrow('meta: must be an object');
  });

  it('joins several problems', () => {
    expect(message({ tone: 'x' })).toBe('name: is required; tone: must be one of friendly, technical');
  });
});

describe('what the schema cannot see is refused too', () => {
  it.each([
    ['{"name":"a","__proto__":{"x":1}}', '__proto__: is a reserved key name and not accepted anywhere in an input'],
    ['{"name":"a","authors":[{"name":"x","constructor":1}]}', 'authors[0].constructor: is a reserved key name and not accepted anywhere in an input'],
    ['{"name":"a","prototype":null}', 'prototype: is a reserved key name and not accepted anywhere in an input'],
    ['{"name":"\\ud800"}', 'name: must not hold a lone UTF-16 surrogate (send well-formed Unicode)'],
    ['{"name":"a","tags":["ok","\\udc00x"]}', 'tags[1]: must not hold a lone UTF-16 surrogate (send well-formed Unicode)'],
  ])('%s → %s', (json, expected) => {
    expect(message(JSON.parse(json))).toBe(expected);
  });

  // The body is the first level: `{"a":[…]}` with n lists nests n + 1 levels.
  const listsIn = (lists: number) => JSON.parse(`{"a":${'['.repeat(lists)}${']'.repeat(lists)}}`) as unknown;

  it('takes objects and lists 64 levels deep to the schema', () => {
    expect(message(listsIn(63))).toBe('name: is required; a: is not a field of this operation');
  });

  it.each([64, 100_000])('refuses %i lists inside the body (65 levels or more), naming where, shortened, and the rule', (lists) => {
    expect(message(listsIn(lists))).toBe('a[0][0][0][0][0][0][0][0][0][0][0][0][0]…: nests deeper than 64 levels of objects and lists');
  });

  it('names a path of keys the same way', () => {
    const objects = JSON.parse(`${'{"key":'.repeat(65)}1${'}'.repeat(65)}`) as unknown;
    expect(message(objects)).toBe('key.key.key.key.key.key.key.key.key.key.…: nests deeper than 64 levels of objects and lists');
  });

  it('accepts a well-formed pair of surrogates (an emoji)', () => {
    expect(parseInput(schema, JSON.parse('{"name":"\\ud83d\\ude00"}'))).toEqual({ name: '😀' });
  });
});
