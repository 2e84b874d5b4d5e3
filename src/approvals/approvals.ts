import type { Kysely, Selectable } from 'kysely';
import type { ApprovalState, ApprovalsTable, Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError, ForbiddenError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { toIso } from '../shared/time.js';
import { pageOf, pageOffset, type PageRequest } from '../shared/paging.js';

/** A pending approval the owner has not decided within this time expires; the change never runs. */
export const APPROVAL_TTL_MS = 7 * 86_400_000;

export type Decision = 'approve' | 'decline';

export interface ApprovalRequest {
  workspaceId: string;
  operationId: string;
  input: Record<string, unknown>;
  summary: string;
  requestedBy: { apiKeyId: string | null; userId: string | null };
}

export function approvalUrl(publicUrl: string, approvalId: string): string {
  return `${publicUrl}/approvals/${approvalId}`;
}

export async function requestApproval(db: Kysely<Database>, clock: Clock, request: ApprovalRequest): Promise<{ approvalId: string; expiresAt: string }> {
  const now = clock.now();
  const approvalId = newId('apr');
  await db
    .insertInto('approvals')
    .values({
      id: approvalId,
      workspace_id: request.workspaceId,
      operation_id: request.operationId,
      input: JSON.stringify(request.input),
      summary: request.summary,
      state: 'pending',
      requested_by_key_id: request.requestedBy.apiKeyId,
      requested_by_user_id: request.requestedBy.userId,
      created_at: now,
      expires_at: now + APPROVAL_TTL_MS,
      decided_at: null,
      decided_by_user_id: null,
      finished_at: null,
      result: null,
      error: null,
    })
    .execute();
  return { approvalId, expiresAt: new Date(now + APPROVAL_TTL_MS).toISOString() };
}

/** A pending approval past its time is expired, whether or not anything has written that down yet. */
function effectiveState(row: Selectable<ApprovalsTable>, now: number): ApprovalState {
  return row.state === 'pending' && row.expires_at <= now ? 'expired' : row.state;
}

async function loadApproval(db: Kysely<Database>, workspaceId: string, approvalId: string) {
  const row = await db.selectFrom('approvals').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', approvalId).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('approval', approvalId);
  return row;
}

export async function readApproval(db: Kysely<Database>, clock: Clock, workspaceId: string, approvalId: string) {
  const row = await loadApproval(db, workspaceId, approvalId);
  return {
    approvalId: row.id,
    operationId: row.operation_id,
    state: effectiveState(row, clock.now()),
    summary: row.summary,
    requestedAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
    decidedAt: toIso(row.decided_at),
    finishedAt: toIso(row.finished_at),
    // finishApproval stores the operation's answer, which is always an object.
    result: row.result === null ? null : (JSON.parse(row.result) as Record<string, unknown>),
    error: row.error,
    // What the change would be called with, so whoever decides sees exactly what runs.
    input: JSON.parse(row.input) as Record<string, unknown>,
  };
}

export interface ClaimedApproval {
  operationId: string;
  input: Record<string, unknown>;
  requestedBy: { apiKeyId: string | null; userId: string | null };
}

/**
 * Records an owner's decision on a pending approval: declined, or running (the caller then runs the change and
 * finishes it). Returns the change to run when approved. Only an owner of the workspace decides.
 */
export async function decide(
  db: Kysely<Database>,
  clock: Clock,
  decision: { workspaceId: string; approvalId: string; userId: string; choice: Decision },
): Promise<ClaimedApproval | null> {
  const { workspaceId, approvalId, userId, choice } = decision;
  const membership = await db.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
  // Someone outside the workspace does not see its approvals at all.
  if (membership === undefined) throw new NotFoundError('approval', approvalId);
  if (membership.role !== 'owner') throw new ForbiddenError('only an owner of this workspace can approve or decline its changes');
  const row = await loadApproval(db, workspaceId, approvalId);
  const now = clock.now();
  const state = effectiveState(row, now);
  if (state !== 'pending') {
    if (state === 'expired' && row.state === 'pending') {
      await db.updateTable('approvals').set({ state: 'expired' }).where('id', '=', approvalId).execute();
    }
    throw BadInputError.field('approvalId', `approval ${approvalId} is ${state}; only a pending approval can be decided`);
  }
  const next: ApprovalState = choice === 'approve' ? 'running' : 'declined';
  const claimed = await db
    .updateTable('approvals')
    .set({ state: next, decided_at: now, decided_by_user_id: userId })
    .where('id', '=', approvalId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  // Another owner decided in between.
  if (claimed.numUpdatedRows === 0n) throw BadInputError.field('approvalId', `approval ${approvalId} was decided in the meantime`);
  if (choice === 'decline') return null;
  return {
    operationId: row.operation_id,
    input: JSON.parse(row.input) as Record<string, unknown>,
    requestedBy: { apiKeyId: row.requested_by_key_id, userId: row.requested_by_user_id },
  };
}

export async function finishApproval(
  db: Kysely<Database>,
  clock: Clock,
  approvalId: string,
  outcome: { result: Record<string, unknown> } | { error: string },
): Promise<void> {
  await db
    .updateTable('approvals')
    .set({
      state: 'result' in outcome ? 'done' : 'failed',
      finished_at: clock.now(),
      result: 'result' in outcome ? JSON.stringify(outcome.result) : null,
      error: 'error' in outcome ? outcome.error : null,
    })
    .where('id', '=', approvalId)
    .execute();
}

export async function listApprovals(db: Kysely<Database>, clock: Clock, workspaceId: string, request: PageRequest) {
  const mine = db.selectFrom('approvals').where('workspace_id', '=', workspaceId);
  const [rows, count] = await Promise.all([
    mine.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(request.limit).offset(pageOffset(request)).execute(),
    mine.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const now = clock.now();
  return {
    ...pageOf(request, Number(count.total)),
    approvals: rows.map((row) => ({ approvalId: row.id, operationId: row.operation_id, summary: row.summary, state: effectiveState(row, now), requestedAt: toIso(row.created_at) })),
  };
}

/** The workspace of an approval, if the user is a member of it (an approvalUrl names no workspace). */
export async function approvalWorkspaceFor(db: Kysely<Database>, approvalId: string, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('approvals')
    .innerJoin('memberships', 'memberships.workspace_id', 'approvals.workspace_id')
    .select('approvals.workspace_id')
    .where('approvals.id', '=', approvalId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  return row?.workspace_id;
}
