import type { JsonSchema, Registry } from '../../tools/registry.js';
import { isPlainObject } from '../shared/objects.js';

/**
 * Every operation's input and output schema as released: `contract.json`, committed. The spec promises additive
 * evolution only, so a change to the registry is checked against it (breakingChanges) before the file is rewritten.
 */
export type Contract = Record<string, { input: JsonSchema; output: JsonSchema }>;

export function buildContract(registry: Registry): Contract {
  return Object.fromEntries(registry.operations.map((operation) => [operation.operationId, { input: operation.inputJsonSchema, output: operation.outputJsonSchema }]));
}

/**
 * Input: what a caller sends must stay accepted. Output: what a caller reads must stay there, with no value it has
 * not been told to expect (a new enum value is the one widening allowed: clients must tolerate unknown values).
 */
type Direction = 'input' | 'output';

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'] as const;
type JsonType = (typeof JSON_TYPES)[number];

/** A schema's alternatives (anyOf, or a list of types) one per JSON type. */
function alternatives(schema: JsonSchema): Map<JsonType, JsonSchema> {
  const found = new Map<JsonType, JsonSchema>();
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [schema];
  for (const member of members) {
    const declared = member.type ?? constType(member);
    for (const type of Array.isArray(declared) ? declared : [declared]) {
      if (typeof type === 'string' && (JSON_TYPES as readonly string[]).includes(type)) found.set(type as JsonType, member);
    }
    // No type at all: any value (an open record's values, z.unknown()).
    if (declared === undefined) for (const type of JSON_TYPES) found.set(type, member);
  }
  return found;
}

function constType(schema: JsonSchema): string | undefined {
  if (!('const' in schema)) return undefined;
  const value = schema.const;
  return value === null ? 'null' : typeof value === 'number' ? 'number' : typeof value;
}

function allowedValues(schema: JsonSchema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  return undefined;
}

const describeValues = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');

/** Bounds that, tightened, refuse input that was accepted: `max` ones may only grow, `min` ones only shrink. */
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;
const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;

function compare(at: string, before: JsonSchema, after: JsonSchema, direction: Direction, out: string[]): void {
  const path = at === '' ? 'the whole value' : at;
  const was = alternatives(before);
  const now = alternatives(after);
  // An integer is a number: integer to number widens, number to integer narrows.
  const had = (types: Map<JsonType, JsonSchema>, type: JsonType) => types.has(type) || (type === 'integer' && types.has('number'));
  if (direction === 'input') {
    for (const type of was.keys()) if (!had(now, type)) out.push(`${path} no longer accepts ${type}`);
  } else {
    for (const type of now.keys()) if (!had(was, type)) out.push(`${path} may now be ${type}`);
  }
  for (const [type, old] of was) {
    const current = now.get(type) ?? (type === 'integer' ? now.get('number') : undefined);
    if (current === undefined) continue;
    compareValues(path, old, current, direction, out);
    if (type === 'object') compareObjects(at, old, current, direction, out);
    if (type === 'array' && isSchema(old.items) && isSchema(current.items)) compare(`${at}[]`, old.items, current.items, direction, out);
  }
}

function isSchema(value: unknown): value is JsonSchema {
  return isPlainObject(value);
}

function compareValues(path: string, before: JsonSchema, after: JsonSchema, direction: Direction, out: string[]): void {
  const oldValues = allowedValues(before);
  const newValues = allowedValues(after);
  if (direction === 'input') {
    if (newValues !== undefined) {
      const dropped = oldValues === undefined ? undefined : oldValues.filter((value) => !newValues.some((v) => v === value));
      if (oldValues === undefined) out.push(`${path} now accepts only ${describeValues(newValues)}`);
      else if (dropped !== undefined && dropped.length > 0) out.push(`${path} no longer accepts ${describeValues(dropped)}`);
    }
    for (const bound of UPPER_BOUNDS) {
      const [old, now] = [before[bound], after[bound]];
      if (typeof now === 'number' && (typeof old !== 'number' || now < old)) out.push(`${path} ${bound} tightened from ${String(old ?? 'none')} to ${now}`);
    }
    for (const bound of LOWER_BOUNDS) {
      const [old, now] = [before[bound], after[bound]];
      if (typeof now === 'number' && (typeof old !== 'number' || now > old)) out.push(`${path} ${bound} tightened from ${String(old ?? 'none')} to ${now}`);
    }
    if (typeof after.pattern === 'string' && after.pattern !== before.pattern) out.push(`${path} has a new pattern`);
    if (typeof after.format === 'string' && after.format !== before.format) out.push(`${path} now must be ${after.format}`);
  } else if (oldValues !== undefined && newValues === undefined) {
    out.push(`${path} is no longer limited to ${describeValues(oldValues)}`);
  }
}

function compareObjects(path: string, before: JsonSchema, after: JsonSchema, direction: Direction, out: string[]): void {
  const oldProperties = (before.properties ?? {}) as Record<string, JsonSchema>;
  const newProperties = (after.properties ?? {}) as Record<string, JsonSchema>;
  const oldRequired = new Set((before.required ?? []) as string[]);
  const newRequired = new Set((after.required ?? []) as string[]);
  const at = (name: string) => (path === '' ? name : `${path}.${name}`);
  for (const [name, old] of Object.entries(oldProperties)) {
    const current = newProperties[name];
    if (current === undefined) {
      // An output record opened to any key (additionalProperties) still carries it; an input field closed is refused.
      if (direction === 'output' || after.additionalProperties === false || after.additionalProperties === undefined) out.push(`${at(name)} was removed`);
      continue;
    }
    if (direction === 'output' && oldRequired.has(name) && !newRequired.has(name)) out.push(`${at(name)} is no longer always present`);
    if (direction === 'input' && !oldRequired.has(name) && newRequired.has(name)) out.push(`${at(name)} is now required`);
    compare(at(name), old, current, direction, out);
  }
  if (direction === 'input') {
    for (const name of newRequired) if (!(name in oldProperties)) out.push(`${at(name)} is a new required field`);
  }
  if (isSchema(before.additionalProperties) && isSchema(after.additionalProperties)) {
    compare(`${path}{*}`, before.additionalProperties, after.additionalProperties, direction, out);
  }
}

/** Every change from `previous` to `current` that breaks a caller, as one sentence each naming the field. */
export function breakingChanges(previous: Contract, current: Contract): string[] {
  const out: string[] = [];
  for (const [operationId, released] of Object.entries(previous)) {
    const now = current[operationId];
    if (now === undefined) {
      out.push(`${operationId} was removed`);
      continue;
    }
    const found: string[] = [];
    compare('', released.input, now.input, 'input', found);
    out.push(...found.map((change) => `${operationId} input: ${change}`));
    const answered: string[] = [];
    compare('', released.output, now.output, 'output', answered);
    out.push(...answered.map((change) => `${operationId} output: ${change}`));
  }
  return out;
}
