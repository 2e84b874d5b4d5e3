import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { screenActive } from '../analytics/screens.js';
import type { z } from 'zod';
import { allows, type approvalAnswer, type dryRunAnswer, dryRunNote, scopeText, type AuthenticatedOperation, type OperationContext, type PublicOperation } from '../../tools/define.js';
import type { JsonObject } from '../shared/objects.js';
import { AuthenticatedKeyCache } from '../auth/keyCache.js';
import { currentRole, ROLE_BOUND_SCOPES, splitByRole } from '../auth/roles.js';
import type { Clock } from '../clock.js';
import { approvalUrl, decide, finishApproval, readApproval, requestApproval, type Decision } from '../approvals/approvals.js';
import { BadInputError, ForbiddenError, ServiceError, UnauthorizedError, toServiceError } from '../errors.js';
import type { Services } from '../outsideServices.js';
import { parseInput } from './input.js';
import { authenticateApiKey, bearerToken, KEY_PERSON_GONE } from './authenticate.js';
import type { Principal } from '../auth/principal.js';
import { RateLimitExceeded, RateLimits, type CapPolicy, type PolicyState } from './rateLimits.js';

export interface PipelineDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  limits: RateLimits;
  services: Services;
  /** The caller behind an OAuth access token (a JWT); API keys are looked up here. */
  accessToken(token: string): Promise<Principal>;
  /** The operations an approved change may name. */
  lookup(operationId: string): AuthenticatedOperation | undefined;
  /** Faults that are not the caller's: logged, answered as a bare 500. */
  onFault(error: unknown, operation: AuthenticatedOperation | PublicOperation): void;
}

export type CallResult =
  /** `data` is null only for a read of a screen not yet activated (see the definition's `screen`). */
  | { ok: true; data: JsonObject | null; limits: PolicyState[] }
  | { ok: false; error: ServiceError; limits: PolicyState[] };

type DryRunAnswer = z.output<typeof dryRunAnswer>;
/** A change waiting for the owner: a 200 answer, not an error; progress is read with get_approval. */
type ApprovalAnswer = z.output<typeof approvalAnswer>;

interface Caller {
  apiKeyId: string | null;
  userId: string | null;
}

/**
 * The one path every call takes, whatever surface it came in on: authenticate, check scope, apply limits,
 * parse input, dry-run gate, handler (in one transaction). Adapters only translate to and from it.
 */
export class Pipeline {
  private readonly recentKeys: AuthenticatedKeyCache<Principal>;

  constructor(private readonly deps: PipelineDeps) {
    this.recentKeys = new AuthenticatedKeyCache(deps.clock);
  }

  async authenticate(authorization: string | undefined): Promise<Principal> {
    const token = bearerToken(authorization);
    if (token === undefined) throw new UnauthorizedError();
    if (token.split('.').length === 3) return this.deps.accessToken(token);
    return authenticateApiKey(this.deps.db, this.deps.clock, token, this.recentKeys);
  }

  /** Runs one operation for an authenticated principal. */
  call(operation: AuthenticatedOperation, principal: Principal, rawInput: unknown): Promise<CallResult> {
    return this.guard(operation, async (limits) => {
      if (!allows(operation, principal.scopes)) {
        throw new ForbiddenError(`this key lacks the scope ${scopeText(operation)}, which ${operation.operationId} requires`);
      }
      await this.requireRoleStillHolds(operation, principal);
      limits.push(...(await this.deps.limits.consume(RateLimits.subject(principal), operation)));
      return this.run(operation, principal, parseInput(operation.input, rawInput));
    });
  }

  /**
   * Spends one call of the principal's budget under `policy` without running anything: for requests that read or
   * change what no operation hands out (MCP's tasks/*, resource reads, prompts), so that they count as calls do.
   * Throws the RateLimitExceeded a call would answer (or the limiter store's 503); scope is the caller's to check first.
   */
  consume(principal: Principal, policy: CapPolicy): Promise<PolicyState[]> {
    return this.deps.limits.consume(RateLimits.subject(principal), policy);
  }

  /** An approval this principal's workspace asked for, as get_approval reads it; not found in any other workspace. */
  readApproval(principal: Principal, approvalId: string): ReturnType<typeof readApproval> {
    return readApproval(this.deps.db, this.deps.clock, principal.workspaceId, approvalId);
  }

  /**
   * A key's principal may come from the cache of recent look-ups, up to KEY_CACHE_TTL_MS old. A call that needs a scope
   * some role lacks (manage:org) reads the person's role afresh, so a demotion or removal on any instance ends that
   * part of their keys at once. Tokens and dashboard sessions read the role on every request already.
   */
  private async requireRoleStillHolds(operation: AuthenticatedOperation, principal: Principal): Promise<void> {
    if (principal.via !== 'api_key' || principal.userId === null || operation.scope === 'any') return;
    if (![operation.scope, ...operation.alsoAccepts].some((scope) => ROLE_BOUND_SCOPES.includes(scope))) return;
    const role = await currentRole(this.deps.db, principal.workspaceId, principal.userId);
    if (role === undefined) throw new UnauthorizedError(KEY_PERSON_GONE);
    if (!allows(operation, new Set(splitByRole(role, principal.scopes).grantable))) {
      throw new ForbiddenError(`${operation.operationId} requires ${scopeText(operation)}, which the role of this key's person (${role}) does not hold`);
    }
  }

  /** Runs a `public` operation (no credential): only its cap applies, counted per client address. */
  callPublic(operation: PublicOperation, address: string, rawInput: unknown): Promise<CallResult> {
    return this.guard(operation, async (limits) => {
      limits.push(...(await this.deps.limits.consume(RateLimits.subject({ address }), operation)));
      const input = parseInput(operation.input, rawInput);
      const { db, clock, publicUrl } = this.deps;
      return operation.handler({ db, clock, publicUrl }, input);
    });
  }

  /** Maps the outcome of a call: typed errors keep their status, anything else is logged and answered as a bare 500. */
  private async guard(operation: AuthenticatedOperation | PublicOperation, body: (limits: PolicyState[]) => Promise<JsonObject | null>): Promise<CallResult> {
    const limits: PolicyState[] = [];
    try {
      return { ok: true, data: await body(limits), limits };
    } catch (error) {
      if (error instanceof RateLimitExceeded) return { ok: false, error, limits: error.policies };
      if (!(error instanceof ServiceError)) this.deps.onFault(error, operation);
      return { ok: false, error: toServiceError(error), limits };
    }
  }

  private context(db: Kysely<Database>, workspaceId: string, caller: Caller, credential: Principal | null): OperationContext {
    return { db, workspaceId, clock: this.deps.clock, caller, credential, publicUrl: this.deps.publicUrl, services: this.deps.services };
  }

  private async run(operation: AuthenticatedOperation, principal: Principal, input: JsonObject): Promise<JsonObject | null> {
    const caller = { apiKeyId: principal.apiKeyId, userId: principal.userId };
    const context = (db: Kysely<Database>) => this.context(db, principal.workspaceId, caller, principal);
    if (operation.describe !== undefined && operation.approval === 'owner') {
      const { note: summary } = dryRunNote(await operation.describe(context(this.deps.db), input));
      const { approvalId, expiresAt } = await requestApproval(this.deps.db, this.deps.clock, {
        workspaceId: principal.workspaceId,
        operationId: operation.operationId,
        input,
        summary,
        requestedBy: caller,
      });
      return { approval_required: true, approvalId, approvalUrl: approvalUrl(this.deps.publicUrl, approvalId), summary, expiresAt } satisfies ApprovalAnswer;
    }
    if (operation.describe !== undefined && input.confirm !== true) {
      const { note, details } = dryRunNote(await operation.describe(context(this.deps.db), input));
      if (operation.confirm === 'required') throw BadInputError.field('confirm', `must be true to proceed; ${note}`);
      return { ...details, dryRun: true, note } satisfies DryRunAnswer;
    }
    if (operation.screen !== null && !(await screenActive(this.deps.db, principal.workspaceId, operation.screen))) return null;
    if (operation.transaction === 'none') return operation.handler(context(this.deps.db), input);
    // Reads too: their several statements see one state, and SQLite takes its WAL read lock once instead of per statement.
    return this.deps.db.transaction().execute((trx) => operation.handler(context(trx), input));
  }

  /**
   * An owner's decision, taken in the dashboard (never through the API). Approving runs the queued change now,
   * as the caller who asked for it: the approval reads running, then done with the answer or failed with the reason.
   */
  async decideApproval(decision: { workspaceId: string; approvalId: string; userId: string; choice: Decision }): Promise<void> {
    const { db, clock } = this.deps;
    const claimed = await db.transaction().execute((trx) => decide(trx, clock, decision));
    if (claimed === null) return;
    const operation = this.deps.lookup(claimed.operationId);
    if (operation === undefined) {
      await finishApproval(db, clock, decision.approvalId, { error: `the operation ${claimed.operationId} no longer exists` });
      return;
    }
    try {
      // Parsed again: the operation's rules may have changed since the request was recorded.
      const input = parseInput(operation.input, claimed.input);
      const context = (handle: Kysely<Database>) => this.context(handle, decision.workspaceId, claimed.requestedBy, null);
      const result =
        operation.transaction === 'none'
          ? await operation.handler(context(db), input)
          : await db.transaction().execute((trx) => operation.handler(context(trx), input));
      await finishApproval(db, clock, decision.approvalId, { result });
    } catch (error) {
      if (!(error instanceof ServiceError)) this.deps.onFault(error, operation);
      await finishApproval(db, clock, decision.approvalId, { error: toServiceError(error).message });
    }
  }
}
