import type { JsonSchema, Registry } from '../tools/registry.js';

/** mcp.json: every MCP tool keyed by its name, with what an MCP host needs plus the REST facts of the same operation. */
export function buildMcpJson(registry: Registry): JsonSchema {
  const tools: JsonSchema = {};
  for (const operation of registry.tools) {
    tools[operation.operationId] = {
      name: operation.operationId,
      title: operation.annotations.title,
      description: operation.description,
      inputSchema: operation.inputJsonSchema,
      annotations: operation.annotations,
      toolset: operation.toolset,
      method: operation.method,
      path: operation.path,
      scope: operation.scope,
      ...(operation.alsoAccepts.length > 0 ? { alsoAccepts: operation.alsoAccepts } : {}),
      cap: operation.cap,
      confirm: operation.confirm,
      approval: operation.approval,
    };
  }
  return tools;
}
