import { BadInputError } from '../errors.js';

/** How a record-writing call (product, buyer profile) names its record and its fields, for the 400 messages. */
export interface RecordShape<F extends string> {
  noun: string;
  idField: string;
  fields: readonly F[];
}

export type WriteMode = { action: 'create' } | { action: 'update'; id: string } | { action: 'delete'; id: string };

/**
 * One operation creates, updates or deletes depending on the id and `del`. The combinations that would
 * otherwise be guessed at (delete without an id, delete with fields, update with nothing) are refused.
 */
export function writeMode<F extends string>(
  shape: RecordShape<F>,
  id: string | undefined,
  del: boolean | undefined,
  values: { readonly [K in F]?: unknown },
): WriteMode {
  const sent = shape.fields.filter((field) => values[field] !== undefined);
  if (del === true) {
    if (id === undefined) throw BadInputError.field(shape.idField, 'is required to delete');
    if (sent.length > 0) {
      throw new BadInputError(sent.map((field) => `${field}: must not be sent with del: true (deleting takes only ${shape.idField})`).join('; '));
    }
    return { action: 'delete', id };
  }
  if (id === undefined) return { action: 'create' };
  if (sent.length === 0) {
    throw BadInputError.field('body', `send at least one ${shape.noun} field to change along with ${shape.idField}, or del: true to delete the ${shape.noun}`);
  }
  return { action: 'update', id };
}

/** Refuses a create that lacks a field every new record needs, naming each missing field. */
export function requireOnCreate<T extends object, K extends keyof T & string>(
  shape: RecordShape<string>,
  values: T,
  required: readonly K[],
): asserts values is T & { [P in K]-?: Exclude<T[P], undefined> } {
  const missing = required.filter((field) => values[field] === undefined);
  if (missing.length > 0) {
    throw new BadInputError(missing.map((field) => `${field}: is required when creating a ${shape.noun} (no ${shape.idField})`).join('; '));
  }
}
