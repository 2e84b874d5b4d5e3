import type { Kysely } from 'kysely';
import type { Database, DeliveriesTable, DeliveryOutcome } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/queue.js';
import { pageOf, pageOffset, type PageRequest } from '../shared/paging.js';
import { toIso } from '../shared/time.js';

/** Attempts of one article delivery: connection failures, timeouts, 429 and 5xx are retried with the worker's backoff. */
export const ARTICLE_DELIVERY_ATTEMPTS = 5;
/** A test event is sent once: the person testing the endpoint reads its outcome now, not after a retry schedule. */
export const TEST_DELIVERY_ATTEMPTS = 1;

export type DeliveryEvent = DeliveriesTable['event'];

export interface NewDelivery {
  workspaceId: string;
  destinationId: string;
  articleId: string | null;
  event: DeliveryEvent;
  article: Record<string, unknown>;
  maxAttempts: number;
}

/**
 * The outbox: the delivery (with the exact bytes that will be signed and sent) and its job are recorded in the caller's
 * transaction, so a delivery exists exactly when the change that asked for it does, and is sent after it commits.
 */
export async function recordDelivery(db: Kysely<Database>, clock: Clock, delivery: NewDelivery): Promise<{ deliveryId: string; jobId: string }> {
  const id = newId('dlv');
  const now = clock.now();
  const body = JSON.stringify({ event: delivery.event, timestamp: now, article: delivery.article });
  await db
    .insertInto('deliveries')
    .values({
      id,
      workspace_id: delivery.workspaceId,
      destination_id: delivery.destinationId,
      article_id: delivery.articleId,
      event: delivery.event,
      body,
      state: 'pending',
      attempts: 0,
      outcome: null,
      status_code: null,
      returned_url: null,
      error: null,
      created_at: now,
      completed_at: null,
    })
    .execute();
  const jobId = await enqueueJob(db, clock, { workspaceId: delivery.workspaceId, kind: 'deliver', subjectId: id, maxAttempts: delivery.maxAttempts });
  return { deliveryId: id, jobId };
}

/** Deliveries not sent yet are cancelled, with their queued jobs (a job already sending finishes and records what happened). */
export async function cancelPendingDeliveries(
  db: Kysely<Database>,
  clock: Clock,
  which: { destinationId: string; articleId?: string },
  reason: string,
): Promise<number> {
  let query = db.selectFrom('deliveries').select('id').where('destination_id', '=', which.destinationId).where('state', '=', 'pending');
  if (which.articleId !== undefined) query = query.where('article_id', '=', which.articleId);
  const ids = (await query.execute()).map((row) => row.id);
  if (ids.length === 0) return 0;
  const now = clock.now();
  await db.updateTable('deliveries').set({ state: 'cancelled', error: reason, completed_at: now }).where('id', 'in', ids).execute();
  await db
    .updateTable('jobs')
    .set({ state: 'failed', error: `cancelled: ${reason}`, finished_at: now })
    .where('kind', '=', 'deliver')
    .where('subject_id', 'in', ids)
    .where('state', '=', 'queued')
    .execute();
  return ids.length;
}

export const DELIVERY_OUTCOMES = ['delivered', 'delivered_no_address', 'failed', 'timeout'] as const satisfies readonly DeliveryOutcome[];

export interface DeliveryListRequest extends PageRequest {
  destinationId?: string | undefined;
  outcome?: DeliveryOutcome | undefined;
}

/**
 * The delivery log, newest first: what was sent where, and how the receiver answered. A removed destination's
 * deliveries stay listed, and it may still be named as the filter (its log is history, not configuration).
 */
export async function listDeliveries(db: Kysely<Database>, workspaceId: string, request: DeliveryListRequest) {
  let rows = db.selectFrom('deliveries').where('deliveries.workspace_id', '=', workspaceId);
  if (request.destinationId !== undefined) {
    const known = await db.selectFrom('destinations').select('id').where('workspace_id', '=', workspaceId).where('id', '=', request.destinationId).executeTakeFirst();
    if (known === undefined) throw new NotFoundError('destination', request.destinationId);
    rows = rows.where('deliveries.destination_id', '=', request.destinationId);
  }
  if (request.outcome !== undefined) rows = rows.where('deliveries.outcome', '=', request.outcome);
  const [page, count] = await Promise.all([
    rows
      .innerJoin('destinations', 'destinations.id', 'deliveries.destination_id')
      .select([
        'deliveries.id',
        'deliveries.destination_id',
        'destinations.name as destination_name',
        'deliveries.event',
        'deliveries.article_id',
        'deliveries.state',
        'deliveries.attempts',
        'deliveries.outcome',
        'deliveries.status_code',
        'deliveries.returned_url',
        'deliveries.error',
        'deliveries.created_at',
        'deliveries.completed_at',
      ])
      .orderBy('deliveries.created_at', 'desc')
      .orderBy('deliveries.id', 'desc')
      .limit(request.limit)
      .offset(pageOffset(request))
      .execute(),
    rows.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    ...pageOf(request, Number(count.n)),
    deliveries: page.map((row) => ({
      deliveryId: row.id,
      destinationId: row.destination_id,
      destinationName: row.destination_name,
      event: row.event,
      contentId: row.article_id,
      state: row.state,
      attempts: row.attempts,
      outcome: row.outcome,
      statusCode: row.status_code,
      url: row.returned_url,
      error: row.error,
      createdAt: toIso(row.created_at),
      completedAt: toIso(row.completed_at),
    })),
  };
}
