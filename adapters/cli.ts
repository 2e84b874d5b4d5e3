import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { scopeText } from '../tools/define.js';
import type { JsonSchema, RegisteredOperation, Registry } from '../tools/registry.js';

/** Options every operation command has; an input of the same name gets the flag `--input-<name>`. */
export const CLIENT_OPTIONS = ['url', 'key', 'json', 'wait', 'input', 'help'] as const;

/** What the client knows of an operation: the registry's public description of it, without the handler. */
export type CliOperation = Pick<RegisteredOperation, 'operationId' | 'toolset' | 'method' | 'path' | 'scope' | 'description' | 'confirm' | 'approval' | 'inputJsonSchema'> & {
  /** The scopes that allow it, as help shows them. */
  scopeText: string;
};

/**
 * Every operation as the client sees it, in registry order. `npm run export` writes it to src/cli/operations.json:
 * the client reads that file instead of importing the registry, so the handlers and all they import stay out of
 * every command's start.
 */
export interface CliCatalogue {
  toolsets: string[];
  operations: CliOperation[];
}

export function cliCatalogue(registry: Registry): CliCatalogue {
  return {
    toolsets: [...registry.toolsets],
    operations: registry.operations.map((operation) => ({
      operationId: operation.operationId,
      toolset: operation.toolset,
      method: operation.method,
      path: operation.path,
      scope: operation.scope,
      scopeText: scopeText(operation),
      description: operation.description,
      confirm: operation.confirm,
      approval: operation.approval,
      inputJsonSchema: operation.inputJsonSchema,
    })),
  };
}

export function operationOf(catalogue: CliCatalogue, operationId: string): CliOperation {
  const operation = catalogue.operations.find((candidate) => candidate.operationId === operationId);
  if (operation === undefined) throw new Error(`the catalogue has no ${operationId}; run npm run export`);
  return operation;
}

/** The input, as the command line gave it, and what the client should do with the answer. */
export interface OperationInvocation {
  operation: CliOperation;
  input: Record<string, unknown>;
  client: { url?: string; key?: string; json: boolean; wait: boolean; full: boolean };
}

export type OperationRunner = (invocation: OperationInvocation) => Promise<void>;

/** One flag of an operation command and the input property it fills. */
export interface InputFlag {
  property: string;
  flag: string;
  schema: JsonSchema;
  required: boolean;
}

const kebab = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();

/** `queries` → `query`, `approvals` → `approval`: the toolset's word as an operationId spells it in the singular. */
const singular = (word: string) => (word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') ? word.slice(0, -1) : word);

/**
 * The command's name inside its toolset group: the operationId without the toolset's own word (the group says it) and
 * without a leading `post` (it only names the HTTP method): `add_brand_guideline` → `brand add-guideline`.
 */
export function commandName(operation: Pick<CliOperation, 'operationId' | 'toolset'>): string {
  const domainWords = new Set([operation.toolset, singular(operation.toolset)]);
  const words = operation.operationId.split('_').filter((word) => word !== '' && !domainWords.has(word));
  if (words[0] === 'post' && words.length > 1) words.shift();
  return words.join('-');
}

/** `sightline <toolset> <command>` without the program name, for the operation with this id. */
export function commandLine(catalogue: CliCatalogue, operationId: string): string {
  const operation = operationOf(catalogue, operationId);
  return `${operation.toolset} ${commandName(operation)}`;
}

const schemaTypes = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : []);

/** The flags of an operation, one per input property; a property that accepts nothing (`not: {}`) has none. */
export function inputFlags(operation: Pick<CliOperation, 'operationId' | 'method' | 'inputJsonSchema'>): InputFlag[] {
  const properties = (operation.inputJsonSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((operation.inputJsonSchema.required ?? []) as string[]);
  return Object.entries(properties)
    .filter(([, schema]) => schemaTypes(schema).length > 0)
    .map(([property, schema]) => {
      const name = kebab(property);
      const flag = (CLIENT_OPTIONS as readonly string[]).includes(name) ? `input-${name}` : name;
      if (operation.method === 'GET' && schemaTypes(schema).some((type) => type === 'object' || type === 'array')) {
        throw new Error(`${operation.operationId}.${property}: a GET input travels in the query string and cannot be an ${String(schema.type)}`);
      }
      return { property, flag, schema, required: required.has(property) };
    });
}

/** `@path` reads the value from a file, so long JSON need not be quoted on the command line. */
function readValue(text: string): string {
  if (!text.startsWith('@')) return text;
  try {
    return readFileSync(text.slice(1), 'utf8');
  } catch (error) {
    throw new InvalidArgumentError(`cannot read ${text.slice(1)}: ${(error as Error).message}`);
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(readValue(text)) as unknown;
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw error;
    throw new InvalidArgumentError(`must be ${what} in JSON (or @file holding it): ${(error as Error).message}`);
  }
}

function checkChoice(value: string, schema: JsonSchema): string {
  const choices = schema.enum as string[] | undefined;
  if (choices !== undefined && !choices.includes(value)) throw new InvalidArgumentError(`"${value}" is not one of ${choices.join(', ')}`);
  return value;
}

function parseInputObject(text: string): Record<string, unknown> {
  const value = parseJson(text, 'an object');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidArgumentError('must be a JSON object');
  return value as Record<string, unknown>;
}

/** Numbers that do not parse stay text, so the service answers with its own rule for the field. */
const scalar = (text: string, types: readonly string[]): unknown =>
  (types.includes('number') || types.includes('integer')) && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

function describeFlag(input: InputFlag): string {
  const { schema } = input;
  const notes: string[] = [];
  if (input.required) notes.push('required');
  const types = schemaTypes(schema);
  const items = schema.items as JsonSchema | undefined;
  if (types.includes('array')) notes.push(schemaTypes(items ?? {}).includes('object') ? 'JSON array' : 'repeat the flag for each item, or give a JSON array');
  else if (types.includes('object')) notes.push('JSON object');
  if (items?.enum !== undefined) notes.push(`each one of ${(items.enum as string[]).join(', ')}`);
  const text = typeof schema.description === 'string' ? schema.description : '';
  if (schema.default !== undefined && !/default/i.test(text)) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (types.includes('null')) notes.push(`--no-${input.flag} sends null`);
  return notes.length > 0 ? `${text} (${notes.join('; ')})` : text;
}

const FORMAT_PLACEHOLDERS: Record<string, string> = { uri: 'url', email: 'email', 'date-time': 'iso-time' };

/** The value's kind, as the help shows it: `--count <integer>`, `--website-url <url>`, `--type <choice>`. */
function placeholder(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return 'choice';
  if (typeof schema.format === 'string' && FORMAT_PLACEHOLDERS[schema.format] !== undefined) return FORMAT_PLACEHOLDERS[schema.format]!;
  const types = schemaTypes(schema);
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'number';
  return 'text';
}

function flagOptions(input: InputFlag): Option[] {
  const { schema, flag } = input;
  const types = schemaTypes(schema);
  const description = describeFlag(input);
  if (types.includes('boolean')) {
    const on = new Option(`--${flag}`, description);
    // A field with a default only ever needs switching on; one without may be sent as false explicitly.
    return schema.default === undefined ? [on, new Option(`--no-${flag}`, `send ${input.property}: false`)] : [on];
  }
  if (types.includes('array')) {
    const items = (schema.items ?? {}) as JsonSchema;
    if (schemaTypes(items).includes('object')) return [new Option(`--${flag} <json>`, description).argParser((text) => parseJson(text, 'an array'))];
    const itemTypes = schemaTypes(items);
    return [
      new Option(`--${flag} <${placeholder(items)}>`, description).argParser((text: string, previous: unknown[] | undefined) => {
        const given = text.trim().startsWith('[') ? parseJson(text, 'an array') : [text];
        if (!Array.isArray(given)) throw new InvalidArgumentError('must be a JSON array');
        const values = given.map((item: unknown) => (typeof item === 'string' ? scalar(checkChoice(item, items), itemTypes) : item));
        return [...(previous ?? []), ...values];
      }),
    ];
  }
  if (types.includes('object')) return [new Option(`--${flag} <json>`, description).argParser((text) => parseJson(text, 'an object'))];
  const option = new Option(`--${flag} <${placeholder(schema)}>`, description);
  if (Array.isArray(schema.enum)) option.choices(schema.enum as string[]);
  else option.argParser((text: string) => scalar(text, types));
  return types.includes('null') ? [option, new Option(`--no-${flag}`, `send ${input.property}: null`)] : [option];
}

/** The input object from `--input` and the flags given beside it (flags win); `--no-x` of a nullable field is null. */
export function collectInput(flags: readonly InputFlag[], options: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...(options.input as Record<string, unknown> | undefined) };
  for (const { property, flag, schema } of flags) {
    const value = options[new Option(`--${flag}`).attributeName()];
    if (value === undefined) continue;
    input[property] = value === false && !schemaTypes(schema).includes('boolean') ? null : value;
  }
  return input;
}

function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

function operationHelp(operation: CliOperation): string {
  const lines = [`\nREST: ${operation.method} ${operation.path}    MCP tool: ${operation.operationId}    scope: ${operation.scopeText}`];
  if (operation.confirm === 'dry-run') lines.push('Without --confirm this is a dry run: nothing changes and the answer says what would happen.');
  if (operation.confirm === 'required') lines.push('Needs --confirm: without it nothing happens.');
  if (operation.approval === 'owner') lines.push("The change waits for the workspace owner's approval; --wait follows it until decided.");
  return lines.join('\n');
}

/**
 * One command per operation, grouped by toolset (`sightline <toolset> <command>`), each running through `run`; the
 * operations in `summarised` print a summary for people and get `--full` for the whole answer.
 */
export function addOperationCommands(program: Command, catalogue: CliCatalogue, run: OperationRunner, summarised: ReadonlySet<string> = new Set()): void {
  for (const toolset of catalogue.toolsets) {
    const members = catalogue.operations.filter((op) => op.toolset === toolset);
    const group = program
      .command(toolset)
      .description(`${members.length} operation${members.length === 1 ? '' : 's'}: ${members.map(commandName).join(', ')}`)
      .helpGroup('Operations:');
    for (const operation of members) {
      const flags = inputFlags(operation);
      const command = group.command(commandName(operation)).summary(firstSentence(operation.description)).description(operation.description);
      for (const input of flags) for (const option of flagOptions(input)) command.addOption(option.helpGroup('Input:'));
      command
        .addOption(new Option('--input <json>', 'the whole input as a JSON object (or @file); flags given beside it win').argParser(parseInputObject).helpGroup('Input:'))
        .addOption(new Option('--json', 'print the answer\'s data as JSON').helpGroup('Client:'))
        .addOption(new Option('--wait', 'retry when rate limited and wait for the background job or approval the call starts').helpGroup('Client:'))
        .addOption(new Option('--url <server>', 'the Sightline server (default: SIGHTLINE_URL, then the last login)').helpGroup('Client:'));
      if (operation.scope !== 'public') command.addOption(new Option('--key <key>', 'API key (default: SIGHTLINE_API_KEY, then the stored login)').helpGroup('Client:'));
      if (summarised.has(operation.operationId)) command.addOption(new Option('--full', 'print every row of the report instead of its summary').helpGroup('Client:'));
      command.addHelpText('after', operationHelp(operation)).action(async (options: Record<string, unknown>) => {
        const input = collectInput(flags, options);
        await run({
          operation,
          input,
          client: {
            ...(typeof options.url === 'string' ? { url: options.url } : {}),
            ...(typeof options.key === 'string' ? { key: options.key } : {}),
            json: options.json === true,
            wait: options.wait === true,
            full: options.full === true,
          },
        });
      });
    }
  }
}
