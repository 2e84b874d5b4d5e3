import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AnalyticsScreen } from '../src/analytics/screens.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../src/clock.js';
import type { DryRunNote } from '../src/shared/dryRun.js';
import type { JsonObject } from '../src/shared/objects.js';
import type { Principal } from '../src/auth/principal.js';
import type { Scope } from '../src/scopes.js';
import type { Services } from '../src/outsideServices.js';

export type HttpMethod = 'GET' | 'POST';
/** Requests per key per minute on this route, on top of the plan limit; `plan`: the plan limit only; `none`: uncapped. */
export type Cap = number | 'plan' | 'none';
/** `dry-run`: without `confirm: true` the call only describes what it would do. `required`: without it the call is refused. */
export type ConfirmPolicy = 'none' | 'dry-run' | 'required';
export type TransactionPolicy = 'per-call' | 'none';

/** All four hints are explicit: an omitted destructiveHint defaults to true and makes hosts show delete-grade prompts. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a `public` operation's handler sees: no caller, no workspace. */
export interface PublicContext {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
}

/** What a handler sees: the caller-bound values come from the credential, never from the arguments. */
export interface OperationContext extends PublicContext {
  workspaceId: string;
  services: Services;
  caller: { apiKeyId: string | null; userId: string | null };
  /** The credential of a live call (get_caller describes it); null when an owner's approval replays a recorded call. */
  credential: Principal | null;
}

export type Surface = 'rest' | 'mcp';

/** A dry run's answer: the note, the facts beside it (which vary by operation) and `dryRun: true`. */
export const dryRunAnswer = z.looseObject({
  dryRun: z.literal(true),
  note: z.string().describe('What the call would do with confirm: true.'),
});

/** The answer of a change that waits for the workspace owner. */
export const approvalAnswer = z.object({
  approval_required: z.literal(true),
  approvalId: z.string(),
  approvalUrl: z.string().describe('Where the owner approves or rejects it.'),
  summary: z.string(),
  expiresAt: z.string().meta({ format: 'date-time' }),
});

/** What a `describe` gave, as a note and its details (none for a plain text). */
export function dryRunNote(described: string | DryRunNote): DryRunNote {
  return typeof described === 'string' ? { note: described, details: {} } : described;
}

type InputSchema = z.ZodObject;
/** What a successful call answers: REST's `data`, MCP's `structuredContent`. */
export type OutputSchema = z.ZodObject;

/** An answer of that shape as a handler may build it: lists it shares with constants (read-only) are fine too. */
export type Answer<T> = T extends readonly (infer Item)[] ? readonly Answer<Item>[] : T extends object ? { readonly [K in keyof T]: Answer<T[K]> } : T;

/** `any`: every valid key or token may call it, whatever its scopes (get_caller). */
export type OperationScope = Scope | 'any';

interface DefinitionBase<S extends InputSchema, O extends OutputSchema> {
  operationId: string;
  method: HttpMethod;
  path: `/api/v1/${string}`;
  /** The scope the specification gives the operation. */
  scope: OperationScope;
  /** Narrower scopes that allow it too (add_query: write:queries beside write:content). */
  alsoAccepts?: readonly Scope[];
  cap: Cap;
  /** For a model: a one-line summary, then when to use it and what it returns. */
  description: string;
  annotations: ToolAnnotations;
  input: S;
  /**
   * The answer's shape: documented in the exports, checked against real answers by the contract tests, and frozen by
   * the schema snapshot (fields may be added, never removed, renamed or narrowed). Not parsed at run time.
   */
  output: O;
  /**
   * `per-call` (default): the handler runs in one transaction. `none`: it calls an outside provider (the writer model,
   * a customer's site) and opens its own short transactions, so a slow provider never holds the database; or it is a
   * read made of one statement, which sees one state by itself and so needs no BEGIN and COMMIT around it; or a report
   * whose statements each stand on their own (a page of rows, then those rows' details), which then run side by side
   * on the pool (PostgreSQL's read-committed transactions give each statement its own snapshot anyway).
   */
  transaction?: TransactionPolicy;
  /**
   * A read of a screen that ships disabled: until the workspace activates it (activate_analytics_screen) the answer is
   * null, on every surface, and the handler does not run.
   */
  screen?: AnalyticsScreen;
  handler(ctx: OperationContext, input: z.output<S>): Promise<Answer<z.output<O>>>;
}

interface PlainDefinition<S extends InputSchema, O extends OutputSchema> extends DefinitionBase<S, O> {
  confirm: 'none';
  approval?: undefined;
}

interface ConfirmedDefinition<S extends InputSchema, O extends OutputSchema> extends DefinitionBase<S, O> {
  confirm: 'dry-run' | 'required';
  approval?: undefined;
  /** Says concretely what the confirmed call would do; runs the same lookups, so foreign ids are 404 here too. */
  describe(ctx: OperationContext, input: z.output<S>): Promise<string | DryRunNote>;
}

/** A change that waits for the workspace owner: the call records it, the owner approves it in the dashboard, then it runs. */
interface ApprovalDefinition<S extends InputSchema, O extends OutputSchema> extends DefinitionBase<S, O> {
  confirm: 'none';
  approval: 'owner';
  /** Says what the change will do, for the owner deciding; runs the same lookups, so foreign ids are 404 at request time. */
  describe(ctx: OperationContext, input: z.output<S>): Promise<string>;
}

export type ToolDefinition<S extends InputSchema, O extends OutputSchema> = PlainDefinition<S, O> | ConfirmedDefinition<S, O> | ApprovalDefinition<S, O>;

interface OperationBase {
  operationId: string;
  method: HttpMethod;
  path: string;
  cap: Cap;
  description: string;
  annotations: ToolAnnotations;
  confirm: ConfirmPolicy;
  /** `owner`: the call records a pending approval and the handler runs once the owner approves. */
  approval: 'owner' | 'none';
  transaction: TransactionPolicy;
  /** The disabled-until-activated screen whose read this is; its answer is null until then. */
  screen: AnalyticsScreen | null;
  /** The schema clients see and the pipeline parses with, `confirm` included where the policy needs it. */
  input: InputSchema;
  output: OutputSchema;
  /** The dry-run note (confirm policies) or the summary the owner sees (approvals). */
  describe?: (ctx: OperationContext, input: JsonObject) => Promise<string | DryRunNote>;
  surfaces: readonly Surface[];
}

/** The registry's erased view of a definition: input already parsed by `input`. */
export interface AuthenticatedOperation extends OperationBase {
  scope: OperationScope;
  alsoAccepts: readonly Scope[];
  handler(ctx: OperationContext, input: JsonObject): Promise<JsonObject>;
}

/**
 * An operation anyone may call without a credential (device login): REST only, capped per client address. Its
 * handler's `db` is not inside a transaction: it keeps what must outlive a refusal (a device poll's time) and opens
 * its own where it needs one.
 */
export interface PublicOperation extends OperationBase {
  scope: 'public';
  handler(ctx: PublicContext, input: JsonObject): Promise<JsonObject>;
}

export type Operation = AuthenticatedOperation | PublicOperation;

/** Whether a credential holding `granted` may call the operation. */
export function allows(operation: AuthenticatedOperation, granted: ReadonlySet<Scope>): boolean {
  return operation.scope === 'any' || granted.has(operation.scope) || operation.alsoAccepts.some((scope) => granted.has(scope));
}

/** The scopes that allow an operation, as the docs and refusals say it: `write:content or write:queries`. */
export function scopeText(operation: Operation): string {
  if (operation.scope === 'public') return 'none (public)';
  if (operation.scope === 'any') return 'any valid key or token';
  return [operation.scope, ...operation.alsoAccepts].join(' or ');
}

const CONFIRM_FIELD = {
  'dry-run': z.boolean().default(false).describe('true: do it; otherwise a dry run.'),
  required: z.boolean().default(false).describe('Must be true.'),
} as const;

export function defineTool<S extends InputSchema, O extends OutputSchema>(definition: ToolDefinition<S, O>): AuthenticatedOperation {
  const { handler, input } = definition;
  const base = {
    operationId: definition.operationId,
    method: definition.method,
    path: definition.path,
    scope: definition.scope,
    alsoAccepts: definition.alsoAccepts ?? [],
    cap: definition.cap,
    description: definition.description,
    annotations: definition.annotations,
    confirm: definition.confirm,
    approval: definition.approval ?? ('none' as const),
    transaction: definition.transaction ?? ('per-call' as const),
    screen: definition.screen ?? null,
    output: definition.output,
    surfaces: ['rest', 'mcp'] as const,
    // The pipeline parses with `input` (or its extension) before calling, so the parsed value has this type.
    handler: (ctx: OperationContext, parsed: JsonObject) => handler(ctx, parsed as z.output<S>),
  };
  if (definition.approval === 'owner') {
    const { describe } = definition;
    return { ...base, input, describe: (ctx, parsed) => describe(ctx, parsed as z.output<S>) };
  }
  if (definition.confirm === 'none') return { ...base, input };
  const { describe } = definition;
  return {
    ...base,
    input: input.extend({ confirm: CONFIRM_FIELD[definition.confirm] }),
    describe: (ctx, parsed) => describe(ctx, parsed as z.output<S>),
  };
}

export interface PublicDefinition<S extends InputSchema, O extends OutputSchema> {
  operationId: string;
  method: HttpMethod;
  path: `/api/v1/${string}`;
  cap: Cap;
  description: string;
  annotations: ToolAnnotations;
  input: S;
  output: O;
  handler(ctx: PublicContext, input: z.output<S>): Promise<Answer<z.output<O>>>;
}

/** A `public` operation: no credential, no workspace, served on REST only. */
export function definePublicOperation<S extends InputSchema, O extends OutputSchema>(definition: PublicDefinition<S, O>): PublicOperation {
  const { handler } = definition;
  return {
    ...definition,
    scope: 'public',
    confirm: 'none',
    approval: 'none',
    transaction: 'none',
    screen: null,
    surfaces: ['rest'],
    handler: (ctx: PublicContext, parsed: JsonObject) => handler(ctx, parsed as z.output<S>),
  };
}
