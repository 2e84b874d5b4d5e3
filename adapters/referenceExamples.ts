import type { JsonSchema } from '../tools/registry.js';

/** What a string field gets in an example, by its format; fields with neither format nor pattern get `example`. */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2026-01-01T09:00:00.000Z',
  date: '2026-01-01',
  uri: 'https://example.com/',
  email: 'you@example.com',
};

/** Strings tried in turn against a field's pattern: one of them fits each pattern the registry uses (ids, colours, times). */
const PATTERN_CANDIDATES = ['example', 'example-1', '#3b5bdb', '09:00', '2026-01-01', 'https://example.com/'];

/** Past this depth an answer's example stops unfolding objects and arrays: enough to show the shape, short enough to read. */
const ANSWER_DEPTH = 4;

/** `input`: only what is required; `full`: every field once (for inputs whose rules tie fields together); `answer`: every field, one item per array. */
export type ExampleKind = 'input' | 'full' | 'answer';

const schemaTypes = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : []);

function sampleString(schema: JsonSchema): string {
  if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format] !== undefined) return FORMAT_SAMPLES[schema.format]!;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fits = (text: string) => text.length >= minLength && text.length <= maxLength && (typeof schema.pattern !== 'string' || new RegExp(schema.pattern).test(text));
  const candidate = PATTERN_CANDIDATES.find(fits);
  if (candidate !== undefined) return candidate;
  return 'x'.repeat(Math.max(minLength, 1));
}

function sampleNumber(schema: JsonSchema, integer: boolean): number {
  if (typeof schema.minimum === 'number') return schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number') return integer ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === 'number' && schema.maximum < 1) return schema.maximum;
  return 1;
}

/**
 * A value the schema accepts, built from the schema alone. An input example is minimal: only required fields, arrays
 * as short as allowed. An answer example shows every field and one item per array, down to a few levels.
 */
export function exampleValue(schema: JsonSchema, kind: ExampleKind, depth = 0): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives !== undefined) {
    const chosen = alternatives.find((option) => !schemaTypes(option).every((type) => type === 'null')) ?? alternatives[0]!;
    return exampleValue(chosen, kind, depth);
  }
  if (kind !== 'answer' && schema.default !== undefined) return schema.default;
  const type = schemaTypes(schema).find((candidate) => candidate !== 'null') ?? (schema.properties === undefined ? 'null' : 'object');
  switch (type) {
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number':
      return sampleNumber(schema, type === 'integer');
    case 'boolean':
      return true;
    case 'array':
      return exampleArray(schema, kind, depth);
    case 'object':
      return exampleObject(schema, kind, depth);
    default:
      return null;
  }
}

function exampleArray(schema: JsonSchema, kind: ExampleKind, depth: number): unknown[] {
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const count = kind !== 'answer' ? Math.max(minItems, kind === 'full' ? 1 : 0) : depth < ANSWER_DEPTH ? Math.max(minItems, 1) : minItems;
  const items = (schema.items ?? {}) as JsonSchema;
  return Array.from({ length: count }, () => exampleValue(items, kind, depth + 1));
}

function exampleObject(schema: JsonSchema, kind: ExampleKind, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const shown = Object.keys(properties).filter((name) => (kind === 'input' ? required.has(name) : kind === 'full' || depth < ANSWER_DEPTH));
  return Object.fromEntries(shown.map((name) => [name, exampleValue(properties[name]!, kind, depth + 1)]));
}
