import { z } from 'zod';
import { approvalAnswer, dryRunAnswer, type AuthenticatedOperation, type Operation } from './define.js';

export type JsonSchema = { [key: string]: unknown };

interface Registration {
  /** The domain folder the operation lives in; MCP clients narrow `tools/list` by it (`?toolsets=`). */
  toolset: string;
  /** JSON Schema (2020-12) of the input as clients send it, computed once. */
  inputJsonSchema: JsonSchema;
  /** JSON Schema of a successful call's result as the handler gives it. */
  outputJsonSchema: JsonSchema;
  /** JSON Schema of everything a 200 answer's data may be: the result, or the dry run's or the pending approval's answer. */
  answerJsonSchema: JsonSchema;
}

export type RegisteredOperation = Operation & Registration;
export type RegisteredMcpOperation = AuthenticatedOperation & Registration;

/** A domain's operations: an MCP toolset and an OpenAPI tag. */
export interface Toolset {
  /** What the group is for, in a sentence: shown as the OpenAPI tag's description and in docs/guide/operations.md. */
  description: string;
  operations: readonly Operation[];
}

export interface Registry {
  operations: readonly RegisteredOperation[];
  /** The operations served as MCP tools: every authenticated one. */
  tools: readonly RegisteredMcpOperation[];
  toolsets: readonly string[];
  toolsetDescription(name: string): string;
  get(operationId: string): RegisteredOperation | undefined;
}

/**
 * What zod writes that says nothing a client needs, while agents pay for it in tools/list: the safe-integer range on
 * every integer, and beside a `format` (date-time, email) the regular expression zod checks it with, some 150 tokens
 * that the format already names. The server still checks both.
 */
function dropRedundantKeywords(schema: JsonSchema): void {
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (typeof schema.format === 'string') delete schema.pattern;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...body } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'throw',
    override: ({ jsonSchema: generated }) => dropRedundantKeywords(generated),
  }) as JsonSchema;
  return body;
}

export function inputJsonSchema(operation: Operation): JsonSchema {
  return jsonSchema(operation.input, 'input');
}

export const DRY_RUN_JSON_SCHEMA = jsonSchema(dryRunAnswer, 'output');
export const APPROVAL_JSON_SCHEMA = jsonSchema(approvalAnswer, 'output');

function answerJsonSchema(operation: Operation, output: JsonSchema): JsonSchema {
  if (operation.screen !== null) return { anyOf: [output, { type: 'null' }] };
  if (operation.approval === 'owner') return { anyOf: [output, APPROVAL_JSON_SCHEMA] };
  if (operation.confirm === 'dry-run') return { anyOf: [output, DRY_RUN_JSON_SCHEMA] };
  return output;
}

export function buildRegistry(toolsets: Record<string, Toolset>): Registry {
  // Public operations (device login) live in the registry too; they are REST only, so not MCP tools.
  const operations: RegisteredOperation[] = [];
  const byId = new Map<string, RegisteredOperation>();
  for (const [toolset, { operations: members }] of Object.entries(toolsets)) {
    for (const operation of members) {
      if (byId.has(operation.operationId)) throw new Error(`operation ${operation.operationId} is declared twice`);
      const outputJsonSchema = jsonSchema(operation.output, 'output');
      const registered = { ...operation, toolset, inputJsonSchema: inputJsonSchema(operation), outputJsonSchema, answerJsonSchema: answerJsonSchema(operation, outputJsonSchema) };
      operations.push(registered);
      byId.set(operation.operationId, registered);
    }
  }
  const tools = operations.filter((op): op is RegisteredMcpOperation => op.scope !== 'public');
  return {
    operations,
    tools,
    toolsets: Object.keys(toolsets),
    toolsetDescription: (name) => toolsets[name]?.description ?? '',
    get: (id) => byId.get(id),
  };
}

/** `registry` with one more toolset (the tests add operations of their own this way). */
export function extendRegistry(registry: Registry, name: string, toolset: Toolset): Registry {
  const existing = Object.fromEntries(
    registry.toolsets.map((other) => [
      other,
      { description: registry.toolsetDescription(other), operations: registry.operations.filter((operation) => operation.toolset === other) },
    ]),
  );
  return buildRegistry({ ...existing, [name]: toolset });
}
