import type { Response } from 'express';
import { scopesOfRole } from '../auth/roles.js';
import type { Membership } from '../accounts/sessions.js';
import { NotFoundError } from '../errors.js';
import type { CallResult } from '../pipeline/pipeline.js';
import type { Principal } from '../auth/principal.js';
import { DEFAULT_PLAN, isPlanName } from '../plans.js';
import type { JsonSchema, RegisteredOperation } from '../../tools/registry.js';
import type { DashboardDeps, Visit } from './pageContext.js';
import { wallTimeToIso } from './format.js';

/**
 * The signed-in person as a caller of the registry: their role's scopes in the workspace they opened. Limits count
 * per person and workspace, so a busy page is held to the same plan quota as an agent.
 */
export function sessionPrincipal(visit: Visit, workspace: Membership): Principal {
  const scopes = scopesOfRole(workspace.role);
  return {
    credentialId: `session:${visit.user.userId}:${workspace.workspaceId}`,
    via: 'dashboard',
    apiKeyId: null,
    grantId: null,
    userId: visit.user.userId,
    workspaceId: workspace.workspaceId,
    plan: isPlanName(workspace.plan) ? workspace.plan : DEFAULT_PLAN,
    scopes: new Set(scopes),
  };
}

export function registeredOperation(deps: DashboardDeps, operationId: string): RegisteredOperation {
  const operation = deps.registry.get(operationId);
  if (operation === undefined) throw new Error(`the dashboard names ${operationId}, which the registry does not declare`);
  return operation;
}

/** Runs one operation for the person on the page, through the same pipeline as REST and MCP. */
export async function callOperation(deps: DashboardDeps, res: Response, operationId: string, input: Record<string, unknown>): Promise<CallResult> {
  const operation = registeredOperation(deps, operationId);
  if (operation.scope === 'public') return deps.pipeline.callPublic(operation, 'dashboard', input);
  const workspace = res.locals.current;
  if (workspace === undefined) return { ok: false, error: new NotFoundError('workspace', 'for this page'), limits: [] };
  return deps.pipeline.call(operation, sessionPrincipal(res.locals.visit!, workspace), input);
}

/** Reads an operation's answer data, or throws its error (the page's error handler shows it). */
export async function readOperation<T = Record<string, unknown>>(deps: DashboardDeps, res: Response, operationId: string, input: Record<string, unknown> = {}): Promise<T> {
  const result = await callOperation(deps, res, operationId, input);
  if (!result.ok) throw result.error;
  return result.data as T;
}

/** Own properties only: a posted field named `__proto__` or `constructor` must not find Object's. */
function propertySchema(schema: JsonSchema, name: string): JsonSchema | undefined {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  return properties !== undefined && Object.hasOwn(properties, name) ? properties[name] : undefined;
}

function typeOf(schema: JsonSchema | undefined): string | undefined {
  if (schema === undefined) return undefined;
  if (typeof schema.type === 'string') return schema.type;
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return variants?.map((variant) => variant.type).find((type): type is string => typeof type === 'string' && type !== 'null');
}

function formatOf(schema: JsonSchema): unknown {
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return schema.format ?? variants?.map((variant) => variant.format).find((format) => format !== undefined);
}

function coerce(value: string, type: string | undefined, format: unknown, timeZone: string): unknown {
  // A date-time input has no zone: its wall time is the workspace's.
  if (format === 'date-time') return wallTimeToIso(value, timeZone) ?? value;
  if ((type === 'number' || type === 'integer') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'on' || value === 'false')) return value !== 'false';
  if (type === 'object') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** The object variant of a property (an optional object is a union with null in JSON Schema), when it is one. */
function objectSchema(property: JsonSchema | undefined): JsonSchema | undefined {
  const inner = property === undefined ? undefined : (((property.anyOf ?? property.oneOf) as JsonSchema[] | undefined)?.find((variant) => variant.type === 'object') ?? property);
  return inner !== undefined && typeOf(inner) === 'object' ? inner : undefined;
}

/**
 * A field of an object input (`ghost.adminApiKey` for create_destination's `ghost: { adminApiKey }`, or deeper:
 * `webflow.fields.body`): a text value set inside the objects, which are left out while all their fields are empty.
 */
function nestedField(operation: RegisteredOperation, input: Record<string, unknown>, path: string[], raw: unknown): void {
  let schema: JsonSchema | undefined = operation.inputJsonSchema;
  for (const name of path.slice(0, -1)) schema = objectSchema(schema === undefined ? undefined : propertySchema(schema, name));
  if (schema === undefined || propertySchema(schema, path.at(-1)!) === undefined) return;
  const value = (Array.isArray(raw) ? raw : [raw]).filter((item): item is string => typeof item === 'string').at(-1);
  if (value === undefined || value === '') return;
  let object = input;
  for (const name of path.slice(0, -1)) {
    object[name] ??= {};
    object = object[name] as Record<string, unknown>;
  }
  object[path.at(-1)!] = value;
}

/**
 * A posted form as an operation's input: each field coerced to the type the operation's schema declares (as REST does
 * for query strings), a list from repeated fields or from one line per item, and an empty field left out so the
 * operation's own rule for a missing value applies. Fields the operation does not declare are dropped: the CSRF token,
 * the page to return to. A time from a `datetime-local` input (no zone) is read in the workspace's `timeZone`. What is
 * left is checked by the pipeline like any other call.
 */
export function formInput(operation: RegisteredOperation, body: Record<string, unknown>, timeZone: string): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(body)) {
    if (/^\w+(\.\w+)+$/.test(name)) {
      nestedField(operation, input, name.split('.'), raw);
      continue;
    }
    const property = propertySchema(operation.inputJsonSchema, name);
    if (property === undefined) continue;
    const values = (Array.isArray(raw) ? raw : [raw]).filter((value): value is string => typeof value === 'string');
    const type = typeOf(property);
    if (type === 'array') {
      const itemSchema = property.items as JsonSchema | undefined;
      const items = values.flatMap((value) => value.split(/\r?\n/)).map((value) => value.trim()).filter((value) => value !== '');
      input[name] = items.map((item) => coerce(item, typeOf(itemSchema), itemSchema?.format, timeZone));
      continue;
    }
    const value = values.at(-1);
    if (value === undefined || value === '') continue;
    input[name] = coerce(value, type, formatOf(property), timeZone);
  }
  return input;
}
