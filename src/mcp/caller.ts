import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { allows } from '../../tools/define.js';
import type { RegisteredMcpOperation, Registry } from '../../tools/registry.js';
import type { Clock } from '../clock.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Principal } from '../pipeline/principal.js';

/**
 * Who asks, and what their connection shows: the same `toolsets` and `readOnly` settings that narrow tools/list
 * (`?toolsets=`, `?readonly=`), so the adapter can pass its tool filter as it is.
 */
export interface McpCaller {
  principal: Principal;
  /** null: every toolset. */
  toolsets: ReadonlySet<string> | null;
  readOnly: boolean;
}

export interface McpDeps {
  db: Kysely<Database>;
  clock: Clock;
  pipeline: Pipeline;
  registry: Registry;
}

/** Exactly the test tools/list applies to a tool: its toolset is on, a read-only connection hides writes, the scopes allow it. */
export function mayUse(caller: McpCaller, operation: RegisteredMcpOperation): boolean {
  return (
    (caller.toolsets === null || caller.toolsets.has(operation.toolset)) &&
    (!caller.readOnly || operation.annotations.readOnlyHint) &&
    allows(operation, caller.principal.scopes)
  );
}

/**
 * Whether the caller may call every one of these tools. A tool the registry lacks (a test's smaller registry) counts
 * as one it may not call, so whatever depends on it is hidden rather than broken.
 */
export function mayUseAll(registry: Registry, caller: McpCaller, operationIds: readonly string[]): boolean {
  return operationIds.every((operationId) => {
    const operation = registry.tools.find((tool) => tool.operationId === operationId);
    return operation !== undefined && mayUse(caller, operation);
  });
}

/** An MCP tool by its operationId, once mayUseAll has found it. */
export function mcpOperation(registry: Registry, operationId: string): RegisteredMcpOperation {
  const operation = registry.tools.find((tool) => tool.operationId === operationId);
  if (operation === undefined) throw new Error(`no MCP tool ${operationId} in the registry`);
  return operation;
}
