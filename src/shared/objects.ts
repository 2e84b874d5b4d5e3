/** Any JSON object as the service passes it on: an operation's input and answer, a dry run's details. */
export type JsonObject = { [key: string]: unknown };

/** A JSON object (what `{…}` parses to): not null, not an array. Every area that reads untyped JSON asks this. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
