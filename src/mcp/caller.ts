import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { allows } from '../../tools/define.js';
import type { RegisteredMcpOperation, Registry } from '../../tools/registry.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { ServiceError } from '../errors.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { CapPolicy } from '../pipeline/rateLimits.js';

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

/** Whether the connection shows a tool, whatever the scopes: its toolset is on, and a read-only connection hides writes. */
export function enabledOnConnection(connection: Omit<McpCaller, 'principal'>, operation: RegisteredMcpOperation): boolean {
  return (connection.toolsets === null || connection.toolsets.has(operation.toolset)) && (!connection.readOnly || operation.annotations.readOnlyHint);
}

/** Exactly the test tools/list applies to a tool: the connection shows it and the scopes allow it. */
export function mayUse(caller: McpCaller, operation: RegisteredMcpOperation): boolean {
  return enabledOnConnection(caller, operation) && allows(operation, caller.principal.scopes);
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

/**
 * A refusal (a ServiceError) as the JSON-RPC error of a method other than tools/call, whose refusals are isError
 * results instead. Bad input is invalid params; anything else, a rate limit included (MCP has no code for one), is
 * -32603 carrying REST's error body and status as `data`: `{ status: 429, error, retryAfterMs }`.
 */
export function refusalError(error: ServiceError): ProtocolError {
  const code = error.status === 400 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, error.message, { status: error.status, ...error.toBody() });
}

/** What a request standing for no operation's data spends (tasks/*, a prompt, an app view): a point of the plan limit. */
export function planOnly(method: string): CapPolicy {
  return { operationId: method, cap: 'plan' };
}

/**
 * Counts a request that is not an operation (tasks/*, a resource read, a prompt) against the caller's rate limits, as
 * a call under `policy` would be; over a limit, it is refused with refusalError's -32603 and its `retryAfterMs`.
 */
export async function spendCall(pipeline: Pick<Pipeline, 'consume'>, principal: Principal, policy: CapPolicy): Promise<void> {
  try {
    await pipeline.consume(principal, policy);
  } catch (error) {
    if (error instanceof ServiceError) throw refusalError(error);
    throw error;
  }
}
