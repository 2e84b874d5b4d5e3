import { SCOPES } from '../src/scopes.js';
import type { JsonSchema, RegisteredOperation, Registry } from '../tools/registry.js';

/** The machine-readable description's own version, fixed by the specification. */
export const API_DOCUMENT_VERSION = '1.0.0';

const ERRORS: Record<string, string> = {
  '400': 'Bad input: the message names the field and the rule',
  '401': 'Missing or invalid API key',
  '403': 'The key lacks the required scope',
  '404': 'Not found in this workspace (also for objects of another workspace)',
  '429': 'Rate limited by the per-key plan limit or the per-route cap; the body carries retryAfterMs',
};

function capText(operation: RegisteredOperation): string {
  if (operation.cap === 'plan') return 'plan limit only';
  if (operation.cap === 'none') return 'uncapped';
  return `${operation.cap} calls per minute per key, on top of the plan limit`;
}

function queryParameters(schema: JsonSchema): JsonSchema[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: 'query', required: required.has(name), ...(description === undefined ? {} : { description }), schema: rest };
  });
}

function operationObject(operation: RegisteredOperation): JsonSchema {
  const responses: JsonSchema = {
    '200': {
      description: 'Success: the payload is in data',
      content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: {} } } } },
    },
  };
  for (const [status, description] of Object.entries(ERRORS)) {
    responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  const hasInput = Object.keys((operation.inputJsonSchema.properties ?? {}) as object).length > 0;
  return {
    operationId: operation.operationId,
    summary: operation.annotations.title,
    description: `${operation.description}\n\nScope: ${operation.scope}. Cap: ${capText(operation)}.`,
    tags: [operation.toolset],
    security: [{ bearerAuth: [operation.scope] }],
    ...(operation.method === 'GET'
      ? hasInput
        ? { parameters: queryParameters(operation.inputJsonSchema) }
        : {}
      : { requestBody: { required: false, content: { 'application/json': { schema: operation.inputJsonSchema } } } }),
    responses,
    'x-scope': operation.scope,
    'x-cap': operation.cap,
    'x-confirm': operation.confirm,
    'x-approval': operation.approval,
    'x-mcp-annotations': operation.annotations,
  };
}

export function buildOpenApi(registry: Registry): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of registry.operations) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method.toLowerCase()] = operationObject(operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sightline API',
      version: API_DOCUMENT_VERSION,
      description: 'Search- and AI-visibility and content service. Every operation is also an MCP tool at /mcp under the same name.',
    },
    tags: registry.toolsets.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: `API key. Scopes: ${Object.keys(SCOPES).join(', ')}` },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'string' }, retryAfterMs: { type: 'integer', description: 'Only on 429' } },
        },
      },
    },
  };
}
