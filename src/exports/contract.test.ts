import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { breakingChanges, type Contract } from './contract.js';

const schema = (value: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _dialect, ...body } = z.toJSONSchema(value, { io }) as Record<string, unknown>;
  return body;
};

/** One operation whose input and output are given as zod objects. */
function contract(input: z.ZodObject, output: z.ZodObject): Contract {
  return { list_things: { input: schema(input, 'input'), output: schema(output, 'output') } };
}

const baseInput = z.strictObject({
  name: z.string().max(200),
  kind: z.enum(['a', 'b']).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});
const baseOutput = z.object({
  id: z.string(),
  state: z.enum(['open', 'closed']),
  note: z.string().nullable(),
  items: z.array(z.object({ url: z.string(), rank: z.number().int() })),
});
const released = contract(baseInput, baseOutput);

describe('breaking changes against the released contract', () => {
  it('accepts additions: a new optional input field, a new output field, a new enum value on either side, a widened input', () => {
    const next = contract(
      baseInput.extend({ kind: z.enum(['a', 'b', 'c']).optional(), since: z.string().optional(), name: z.string().max(500) }),
      baseOutput.extend({ state: z.enum(['open', 'closed', 'archived']), createdAt: z.string(), items: z.array(z.object({ url: z.string(), rank: z.number().int(), title: z.string() })) }),
    );
    expect(breakingChanges(released, next)).toEqual([]);
  });

  it('names a removed or renamed field on either side', () => {
    const next = contract(baseInput.omit({ kind: true }), baseOutput.omit({ note: true }).extend({ comment: z.string().nullable() }));
    expect(breakingChanges(released, next)).toEqual(['list_things input: kind was removed', 'list_things output: note was removed']);
  });

  it('names a narrowed input: a tighter bound, a dropped enum value, a field made required, a new required field, a type taken away', () => {
    const next = contract(
      z.strictObject({ name: z.string().max(100), kind: z.enum(['a']), limit: z.number().int().min(1).max(100).optional(), owner: z.string() }),
      baseOutput,
    );
    expect(breakingChanges(released, next)).toEqual([
      'list_things input: name maxLength tightened from 200 to 100',
      'list_things input: kind is now required',
      'list_things input: kind no longer accepts "b"',
      'list_things input: owner is a new required field',
    ]);
    const noLongerText = contract(baseInput.extend({ name: z.number() }), baseOutput);
    expect(breakingChanges(released, noLongerText)).toEqual(['list_things input: name no longer accepts string']);
  });

  it('names a widened or loosened output: a value that may now be null, a field no longer always present, an integer now any number', () => {
    const next = contract(
      baseInput,
      baseOutput.extend({ id: z.string().nullable(), note: z.string().nullable().optional(), items: z.array(z.object({ url: z.string(), rank: z.number() })) }),
    );
    expect(breakingChanges(released, next)).toEqual([
      'list_things output: id may now be null',
      'list_things output: note is no longer always present',
      'list_things output: items[].rank may now be number',
    ]);
  });

  it('names a removed operation', () => {
    expect(breakingChanges(released, {})).toEqual(['list_things was removed']);
  });
});
