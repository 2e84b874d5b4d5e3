import { answerResult } from '../src/mcp/toolResults.js';
import { scopeText } from '../tools/define.js';
import type { JsonSchema, RegisteredOperation, Registry } from '../tools/registry.js';
import { commandName, inputFlags } from './cli.js';
import { capText } from './openapi.js';
import { exampleValue } from './referenceExamples.js';

/*
 * The API reference as data, one model per operation: docs/reference/*.md (npm run export) and the service's /docs
 * pages are both rendered from it, so the two never say different things.
 */

/** One field of an input or answer; nested fields are named by their path (`items[].url`). */
export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export interface Example {
  surface: 'REST' | 'MCP' | 'CLI';
  request: string;
  /** The request's language, for the code block: a shell command or a JSON-RPC message. */
  requestLanguage: 'sh' | 'json';
  answer: string;
}

export interface OperationReference {
  operationId: string;
  title: string;
  toolset: string;
  description: string;
  method: string;
  path: string;
  /** `null` for a public operation, which is REST only. */
  mcpTool: string | null;
  cliCommand: string;
  scope: string;
  cap: string;
  /** What the call does before it changes anything: dry run, confirm, owner approval, a screen to activate. */
  behaviour: string;
  hints: string;
  input: FieldRow[];
  answer: FieldRow[];
  examples: Example[];
}

export interface ReferenceArea {
  name: string;
  description: string;
  operations: Array<Pick<OperationReference, 'operationId' | 'title' | 'method' | 'path' | 'scope'>>;
}

const schemaTypes = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : []);

function typeText(schema: JsonSchema): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives !== undefined) return alternatives.map(typeText).join(' | ');
  const types = schemaTypes(schema).map((type) => {
    if (type === 'array') return `array of ${typeText((schema.items ?? {}) as JsonSchema)}`;
    if (type === 'object' && schema.properties === undefined && typeof schema.additionalProperties === 'object') {
      return `map of ${typeText(schema.additionalProperties as JsonSchema)}`;
    }
    return typeof schema.format === 'string' && type === 'string' ? `string (${schema.format})` : type;
  });
  return types.length > 0 ? types.join(' | ') : 'any';
}

function bounds(schema: JsonSchema): string[] {
  const notes: string[] = [];
  const pairs: Array<[string, string]> = [
    ['minimum', '≥'],
    ['exclusiveMinimum', '>'],
    ['maximum', '≤'],
    ['exclusiveMaximum', '<'],
  ];
  for (const [keyword, sign] of pairs) if (typeof schema[keyword] === 'number') notes.push(`${sign} ${String(schema[keyword])}`);
  if (typeof schema.minLength === 'number' && schema.minLength > 1) notes.push(`at least ${schema.minLength} characters`);
  if (typeof schema.maxLength === 'number') notes.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.minItems === 'number' && schema.minItems > 0) notes.push(`at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (typeof schema.maxItems === 'number') notes.push(`at most ${schema.maxItems} items`);
  if (typeof schema.pattern === 'string') notes.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

/** The object schema a field's children live in: the field itself, its array's items, or the non-null alternative. */
function container(schema: JsonSchema): { schema: JsonSchema; suffix: string } | undefined {
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  const plain = alternatives?.filter((option) => !schemaTypes(option).every((type) => type === 'null'));
  if (plain !== undefined) return plain.length === 1 ? container(plain[0]!) : undefined;
  if (schema.properties !== undefined) return { schema, suffix: '' };
  if (schemaTypes(schema).includes('array') && schema.items !== undefined) {
    const inner = container(schema.items as JsonSchema);
    return inner === undefined ? undefined : { schema: inner.schema, suffix: `[]${inner.suffix}` };
  }
  return undefined;
}

/** Every field of an object schema, depth first, each nested one after its parent. */
export function fieldRows(schema: JsonSchema, prefix = ''): FieldRow[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([name, property]) => {
    const path = `${prefix}${name}`;
    const rules = bounds(property).join('; ');
    const text = typeof property.description === 'string' ? property.description : '';
    const description = rules === '' ? text : text === '' ? rules : `${text} (${rules})`;
    const row: FieldRow = { name: path, type: typeText(property), required: required.has(name), description };
    const inner = container(property);
    return [row, ...(inner === undefined ? [] : fieldRows(inner.schema, `${path}${inner.suffix}.`))];
  });
}

function behaviour(operation: RegisteredOperation): string {
  const notes: string[] = [];
  if (operation.confirm === 'dry-run') notes.push('Dry run unless `confirm: true`: without it nothing changes and the answer (`dryRun: true`, `note`) says what would happen.');
  if (operation.confirm === 'required') notes.push('Needs `confirm: true`; without it the call is refused and nothing changes.');
  if (operation.approval === 'owner') notes.push("Waits for the workspace owner's approval: the answer is `approval_required: true` with an `approvalUrl`, and the change runs once the owner approves it.");
  if (operation.screen !== null) notes.push(`Answers \`null\` until the workspace activates the \`${operation.screen}\` screen (activate_analytics_screen).`);
  return notes.length > 0 ? notes.join(' ') : 'Runs at once: no dry run, no approval.';
}

function hints(operation: RegisteredOperation): string {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = operation.annotations;
  const words = [readOnlyHint ? 'read-only' : destructiveHint ? 'destructive' : 'additive (not destructive)'];
  if (idempotentHint) words.push('idempotent');
  if (openWorldHint) words.push('open world (reaches outside the service)');
  return words.join(', ');
}

/** The input every example sends: the smallest valid one, with `confirm: true` where the policy has it, so the answer is the result. */
export function exampleInput(operation: RegisteredOperation): Record<string, unknown> {
  const candidates = (['input', 'full'] as const).map((kind) => exampleValue(operation.inputJsonSchema, kind) as Record<string, unknown>);
  const valid = candidates.find((candidate) => operation.input.safeParse(candidate).success);
  // Rules zod checks beyond the JSON Schema (one field or the other) need an `examples` entry on the schema.
  if (valid === undefined) throw new Error(`${operation.operationId}: no valid example input can be built from its schema; give the input .meta({ examples: [...] })`);
  return operation.confirm === 'none' ? valid : { ...valid, confirm: true };
}

const shellQuote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

function restExample(operation: RegisteredOperation, origin: string, input: Record<string, unknown>, answer: unknown): Example {
  const auth = operation.scope === 'public' ? [] : ['-H "Authorization: Bearer $SIGHTLINE_API_KEY"'];
  const url = `${origin}${operation.path}`;
  const words =
    operation.method === 'GET'
      ? [...auth, shellQuote(Object.keys(input).length === 0 ? url : `${url}?${new URLSearchParams(Object.entries(input).map(([name, value]): [string, string] => [name, String(value)])).toString()}`)]
      : ['-X POST', ...auth, "-H 'Content-Type: application/json'", `-d ${shellQuote(JSON.stringify(input))}`, url];
  return { surface: 'REST', request: `curl ${words.join(' \\\n  ')}`, requestLanguage: 'sh', answer: JSON.stringify({ data: answer }, null, 2) };
}

function mcpExample(operation: RegisteredOperation, input: Record<string, unknown>, answer: unknown): Example {
  const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: operation.operationId, arguments: input } };
  const result = answer === null ? { content: [{ type: 'text', text: 'null' }] } : answerResult(answer as Record<string, unknown>);
  return { surface: 'MCP', request: JSON.stringify(request, null, 2), requestLanguage: 'json', answer: JSON.stringify({ jsonrpc: '2.0', id: 1, result }, null, 2) };
}

function cliArguments(operation: RegisteredOperation, input: Record<string, unknown>): string[] {
  return inputFlags(operation).flatMap(({ property, flag, schema }) => {
    const value = input[property];
    if (value === undefined) return [];
    if (value === true) return [`--${flag}`];
    if (value === null || value === false) return [`--no-${flag}`];
    const itemsAreScalars = Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null);
    if (Array.isArray(value) && itemsAreScalars && !schemaTypes((schema.items ?? {}) as JsonSchema).includes('object')) {
      return value.flatMap((item) => [`--${flag}`, shellQuote(String(item))]);
    }
    return [`--${flag}`, shellQuote(typeof value === 'object' ? JSON.stringify(value) : String(value))];
  });
}

function cliExample(operation: RegisteredOperation, input: Record<string, unknown>, answer: unknown): Example {
  const words = ['sightline', operation.toolset, commandName(operation), ...cliArguments(operation, input), '--json'];
  return { surface: 'CLI', request: words.join(' '), requestLanguage: 'sh', answer: JSON.stringify(answer, null, 2) };
}

/** The reference of one operation; `origin` is the server the examples call. */
export function operationReference(operation: RegisteredOperation, origin: string): OperationReference {
  const input = exampleInput(operation);
  const answer = exampleValue(operation.outputJsonSchema, 'answer');
  const isTool = operation.scope !== 'public';
  return {
    operationId: operation.operationId,
    title: operation.annotations.title,
    toolset: operation.toolset,
    description: operation.description,
    method: operation.method,
    path: operation.path,
    mcpTool: isTool ? operation.operationId : null,
    cliCommand: `sightline ${operation.toolset} ${commandName(operation)}`,
    scope: scopeText(operation),
    cap: capText(operation),
    behaviour: behaviour(operation),
    hints: hints(operation),
    input: fieldRows(operation.inputJsonSchema),
    answer: fieldRows(operation.outputJsonSchema),
    examples: [restExample(operation, origin, input, answer), ...(isTool ? [mcpExample(operation, input, answer)] : []), cliExample(operation, input, answer)],
  };
}

/** The index: every operation, grouped by its area (toolset), in registry order. */
export function referenceAreas(registry: Registry): ReferenceArea[] {
  return registry.toolsets.map((name) => ({
    name,
    description: registry.toolsetDescription(name),
    operations: registry.operations
      .filter((operation) => operation.toolset === name)
      .map((operation) => ({ operationId: operation.operationId, title: operation.annotations.title, method: operation.method, path: operation.path, scope: scopeText(operation) })),
  }));
}
