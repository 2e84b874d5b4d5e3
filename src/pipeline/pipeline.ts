import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { JsonObject, Operation, OperationContext } from '../../tools/define.js';
import type { Clock } from '../clock.js';
import { BadInputError, ForbiddenError, ServiceError, UnauthorizedError, toServiceError } from '../errors.js';
import { parseInput } from './input.js';
import { authenticateApiKey, bearerToken, type Principal } from './principal.js';
import { RateLimitExceeded, RateLimits, type PolicyState } from './rateLimits.js';

export interface PipelineDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  limits: RateLimits;
  /** Faults that are not the caller's: logged, answered as a bare 500. */
  onFault(error: unknown, operation: Operation): void;
}

export type CallResult =
  | { ok: true; data: JsonObject; limits: PolicyState[] }
  | { ok: false; error: ServiceError; limits: PolicyState[] };

export interface DryRunAnswer extends JsonObject {
  dryRun: true;
  note: string;
}

/**
 * The one path every call takes, whatever surface it came in on: authenticate, check scope, apply limits,
 * parse input, dry-run gate, handler (in one transaction). Adapters only translate to and from it.
 */
export class Pipeline {
  constructor(private readonly deps: PipelineDeps) {}

  async authenticate(authorization: string | undefined): Promise<Principal> {
    const token = bearerToken(authorization);
    if (token === undefined) throw new UnauthorizedError();
    return authenticateApiKey(this.deps.db, this.deps.clock, token);
  }

  /** Runs one operation for an authenticated principal. */
  async call(operation: Operation, principal: Principal, rawInput: unknown): Promise<CallResult> {
    let limits: PolicyState[] = [];
    try {
      if (!principal.scopes.has(operation.scope)) {
        throw new ForbiddenError(`this key lacks the scope ${operation.scope}, which ${operation.operationId} requires`);
      }
      limits = await this.deps.limits.consume(principal, operation);
      const input = parseInput(operation.input, rawInput);
      const data = await this.run(operation, principal, input);
      return { ok: true, data, limits };
    } catch (error) {
      if (error instanceof RateLimitExceeded) limits = error.policies;
      else if (!(error instanceof ServiceError)) this.deps.onFault(error, operation);
      return { ok: false, error: toServiceError(error), limits };
    }
  }

  private async run(operation: Operation, principal: Principal, input: JsonObject): Promise<JsonObject> {
    const context = (db: Kysely<Database>): OperationContext => ({
      db,
      workspaceId: principal.workspaceId,
      clock: this.deps.clock,
      caller: { apiKeyId: principal.apiKeyId, userId: principal.userId },
      publicUrl: this.deps.publicUrl,
    });
    if (operation.describe !== undefined && input.confirm !== true) {
      const note = await operation.describe(context(this.deps.db), input);
      if (operation.confirm === 'required') throw BadInputError.field('confirm', `must be true to proceed; ${note}`);
      return { dryRun: true, note } satisfies DryRunAnswer;
    }
    // Reads too: their several statements see one state, and SQLite takes its WAL read lock once instead of per statement.
    return this.deps.db.transaction().execute((trx) => operation.handler(context(trx), input));
  }
}
