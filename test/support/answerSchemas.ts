import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { APPROVAL_JSON_SCHEMA, DRY_RUN_JSON_SCHEMA, type JsonSchema, type RegisteredOperation } from '../../tools/registry.js';

// The JSON Schemas the exports publish, so that what is checked is what is documented.
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function problems(schema: JsonSchema, value: unknown): string[] {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '(answer)'} ${error.message ?? 'is not as documented'} ${JSON.stringify(error.params)}`);
}

/** How the answer of a call that did its work departs from the operation's output schema (none when it matches). */
export function outputProblems(operation: RegisteredOperation, data: unknown): string[] {
  return problems(operation.outputJsonSchema, data);
}

/** The same for a dry run's answer and for a change left waiting for the owner. */
export const dryRunProblems = (data: unknown): string[] => problems(DRY_RUN_JSON_SCHEMA, data);
export const approvalProblems = (data: unknown): string[] => problems(APPROVAL_JSON_SCHEMA, data);

/** How a 200 answer departs from everything the operation documents for one (result, dry run or pending approval). */
export function answerProblems(operation: RegisteredOperation, data: unknown): string[] {
  return problems(operation.answerJsonSchema, data);
}
