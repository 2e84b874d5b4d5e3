import { z } from 'zod';
import type { AuthenticatedOperation, Operation } from './define.js';

export type JsonSchema = { [key: string]: unknown };

interface Registration {
  /** The domain folder the operation lives in; MCP clients narrow `tools/list` by it (`?toolsets=`). */
  toolset: string;
  /** JSON Schema (2020-12) of the input as clients send it, computed once. */
  inputJsonSchema: JsonSchema;
}

export type RegisteredOperation = Operation & Registration;
export type RegisteredMcpOperation = AuthenticatedOperation & Registration;

export interface Registry {
  operations: readonly RegisteredOperation[];
  /** The operations served as MCP tools: every authenticated one. */
  tools: readonly RegisteredMcpOperation[];
  toolsets: readonly string[];
  get(operationId: string): RegisteredOperation | undefined;
}

export function inputJsonSchema(operation: Operation): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(operation.input, { io: 'input', unrepresentable: 'throw' }) as JsonSchema;
  return schema;
}

export function buildRegistry(toolsets: Record<string, readonly Operation[]>): Registry {
  // Public operations (device login) live in the registry too; they are REST only, so not MCP tools.
  const operations: RegisteredOperation[] = [];
  const byId = new Map<string, RegisteredOperation>();
  for (const [toolset, members] of Object.entries(toolsets)) {
    for (const operation of members) {
      if (byId.has(operation.operationId)) throw new Error(`operation ${operation.operationId} is declared twice`);
      const registered = { ...operation, toolset, inputJsonSchema: inputJsonSchema(operation) };
      operations.push(registered);
      byId.set(operation.operationId, registered);
    }
  }
  const tools = operations.filter((op): op is RegisteredMcpOperation => op.scope !== 'public');
  return { operations, tools, toolsets: Object.keys(toolsets), get: (id) => byId.get(id) };
}
