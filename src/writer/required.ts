import { BadInputError } from '../errors.js';
import { nameList } from '../integrations/kit/declaration.js';
import { WRITER } from '../integrations/openai/provider.js';
import type { Writer } from './model.js';

// Kept apart from model.ts, which the writer's client imports: these words come from the writer's declaration, which opens that client.
export const WRITER_SETTINGS = `${nameList(WRITER.turnedOnBy)} (and WRITER_API_KEY when the server needs one)`;

/** The writer, or the 400 that tells the caller which settings the operator has to configure. */
export function requireWriter(writer: Writer | undefined): Writer {
  if (writer === undefined) throw new BadInputError(`no writer model is configured: the operator sets ${WRITER_SETTINGS}`);
  return writer;
}
