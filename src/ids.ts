import { randomBytes } from 'node:crypto';

/** Opaque identifiers: a short type prefix, then 96 random bits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
