/** A JSON object (what `{…}` parses to): not null, not an array. Every area that reads untyped JSON asks this. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
