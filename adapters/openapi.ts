import { SCOPES } from '../src/scopes.js';
import { scopeText } from '../tools/define.js';
import type { JsonSchema, RegisteredOperation, Registry } from '../tools/registry.js';

/** The machine-readable description's own version, fixed by the specification. */
export const API_DOCUMENT_VERSION = '1.0.0';

const ERRORS = {
  '400': 'Bad input: the message names the field and the rule; nothing changed',
  '401': 'Missing, invalid or revoked API key or access token',
  '403': 'The key or token lacks the scope the operation needs',
  '404': 'Not found in this workspace (objects of another workspace answer exactly the same)',
  '429': 'Rate limited by the plan limit per key or the per-route cap; retryAfterMs and Retry-After say when to come back',
  '503': 'Limits cannot be checked right now (the shared limiter store is out of reach); nothing was done, retry after retryAfterMs',
} as const;

type ErrorStatus = keyof typeof ERRORS;

/** The statuses an operation can answer besides 200: 404 only where it names an object by id. */
function errorStatuses(operation: RegisteredOperation): ErrorStatus[] {
  const namesObject = Object.keys((operation.inputJsonSchema.properties ?? {}) as object).some((name) => /Id$/.test(name));
  const statuses: ErrorStatus[] = operation.scope === 'public' ? ['400'] : operation.scope === 'any' ? ['400', '401'] : ['400', '401', '403'];
  if (namesObject) statuses.push('404');
  statuses.push('429', '503');
  return statuses;
}

/** Security requirements are alternatives: any one of the accepted scopes will do; `any` asks for the bearer alone. */
function security(operation: RegisteredOperation): Array<Record<string, string[]>> {
  if (operation.scope === 'public') return [];
  if (operation.scope === 'any') return [{ bearerAuth: [] }];
  return [operation.scope, ...operation.alsoAccepts].map((scope) => ({ bearerAuth: [scope] }));
}

function dataDescription(operation: RegisteredOperation): string {
  if (operation.approval === 'owner') return 'Success: data is the result, or, when the change waits for the owner, the pending approval (approval_required)';
  if (operation.confirm === 'dry-run') return 'Success: data is the result with confirm: true, or the dry run (dryRun: true) without it';
  return 'Success: the result is in data';
}

export function capText(operation: RegisteredOperation): string {
  if (operation.cap === 'plan') return 'plan limit only';
  if (operation.cap === 'none') return 'uncapped';
  // A public operation has no key and no plan: its calls count per client address (RateLimits.subject).
  if (operation.scope === 'public') return `${operation.cap} calls per minute per client address`;
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
      description: dataDescription(operation),
      content: {
        'application/json': {
          schema: { type: 'object', required: ['data'], properties: { data: operation.answerJsonSchema }, additionalProperties: false },
        },
      },
    },
  };
  for (const status of errorStatuses(operation)) {
    responses[status] = { description: ERRORS[status], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  const hasInput = Object.keys((operation.inputJsonSchema.properties ?? {}) as object).length > 0;
  return {
    operationId: operation.operationId,
    summary: operation.annotations.title,
    description: `${operation.description}\n\nScope: ${scopeText(operation)}. Cap: ${capText(operation)}.`,
    tags: [operation.toolset],
    security: security(operation),
    ...(operation.method === 'GET'
      ? hasInput
        ? { parameters: queryParameters(operation.inputJsonSchema) }
        : {}
      : { requestBody: { required: false, content: { 'application/json': { schema: operation.inputJsonSchema } } } }),
    responses,
    'x-scope': operation.scope,
    ...(operation.scope !== 'public' && operation.alsoAccepts.length > 0 ? { 'x-also-accepts': operation.alsoAccepts } : {}),
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
      // No licence has been chosen for Sightline yet: all rights reserved (an SPDX LicenseRef, as SPDX has no id for it).
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    // The document is served by every instance and exported as a file: the origin is the instance's PUBLIC_URL.
    servers: [{ url: '{origin}', variables: { origin: { default: 'http://localhost:3000', description: 'The Sightline instance (its PUBLIC_URL)' } } }],
    tags: registry.toolsets.map((name) => ({ name, description: registry.toolsetDescription(name) })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: `API key. Scopes: ${Object.keys(SCOPES).join(', ')}` },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'string', description: 'What went wrong; for bad input, the field and the rule' },
            retryAfterMs: { type: 'integer', description: 'On 429 and 503: when to try again' },
          },
          additionalProperties: false,
        },
      },
    },
  };
}
