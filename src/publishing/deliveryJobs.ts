import type { Kysely } from 'kysely';
import type { Database, DeliveryOutcome } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { CredentialSealer } from '../credentials/sealed.js';
import { noteBrokenConnection } from '../changes/connections.js';
import { recordChanges } from '../changes/record.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/queue.js';
import { RetryableJobError, type ClaimedJob, type JobDeps, type JobHandler } from '../jobs/worker.js';
import { postToEndpoint } from '../outbound/postToEndpoint.js';
import type { SafeFetcher } from '../outbound/safeFetch.js';
import { ProviderError } from '../integrations/kit/providerError.js';
import type { CmsArticle, PlacedPost } from './cms/destination.js';
import { cmsDeps } from './cms/deps.js';
import { CMS_KINDS, isCmsKind, type CmsKindName } from './cms/kinds.js';
import { receiverAddress, usableAddress } from './receiverAnswer.js';
import { checkRendersLive } from './renderCheck.js';
import { deliveryHeaders } from './signing.js';

/** Render checks of one publish: a static site may still be building at the first look. */
export const RENDER_CHECK_ATTEMPTS = 3;

export function timeoutMessage(timeoutMs: number): string {
  return `Failed: the endpoint did not answer within ${timeoutMs / 1000} seconds`;
}

interface AttemptResult {
  outcome: DeliveryOutcome;
  statusCode: number | null;
  url: string | null;
  /** What the destination shows: `Delivered`, `Delivered, no address`, `Failed: ...`. */
  message: string;
  note: string | null;
  /** Worth another attempt (timeouts, connection failures, 429, 5xx), not before this many milliseconds. */
  retryAfterMs: number | null;
  /** The CMS refused the destination's credentials. */
  refused?: boolean;
}

interface PendingDelivery {
  id: string;
  kind: string;
  siteUrl: string | null;
  settings: string;
  /** A CMS kind's credentials JSON, opened; null for a webhook. */
  credentials: string | null;
  workspaceId: string;
  destinationId: string;
  articleId: string | null;
  event: 'article.published' | 'article.updated' | 'test';
  body: string;
  attempts: number;
  endpointUrl: string;
  secret: string;
}

/** The delivery still to be sent, with its destination's signing secret opened (it may be stored sealed). */
async function pendingDelivery(db: Kysely<Database>, credentials: CredentialSealer, deliveryId: string): Promise<PendingDelivery | undefined> {
  const delivery = await db
    .selectFrom('deliveries')
    .innerJoin('destinations', 'destinations.id', 'deliveries.destination_id')
    .select([
      'deliveries.id as id',
      'deliveries.workspace_id as workspaceId',
      'deliveries.destination_id as destinationId',
      'deliveries.article_id as articleId',
      'deliveries.event as event',
      'deliveries.body as body',
      'deliveries.attempts as attempts',
      'destinations.endpoint_url as endpointUrl',
      'destinations.signing_secret as secret',
      'destinations.kind as kind',
      'destinations.site_url as siteUrl',
      'destinations.settings as settings',
      'destinations.credentials as credentials',
    ])
    .where('deliveries.id', '=', deliveryId)
    .where('deliveries.state', '=', 'pending')
    .where('destinations.removed_at', 'is', null)
    .executeTakeFirst();
  if (delivery === undefined) return undefined;
  return { ...delivery, secret: credentials.open(delivery.secret), credentials: delivery.credentials === null ? null : credentials.open(delivery.credentials) };
}

async function send(outbound: SafeFetcher, delivery: PendingDelivery, now: number, timeoutMs: number): Promise<AttemptResult> {
  const headers = deliveryHeaders({ deliveryId: delivery.id, event: delivery.event, body: delivery.body, secret: delivery.secret, now });
  const attempt = await postToEndpoint(outbound, delivery.endpointUrl, { body: delivery.body, headers, timeoutMs, now });
  if (!attempt.answered) {
    if (attempt.timedOut) return { outcome: 'timeout', statusCode: null, url: null, message: timeoutMessage(timeoutMs), note: null, retryAfterMs: 0 };
    return { outcome: 'failed', statusCode: null, url: null, message: `Failed: ${attempt.error}`, note: null, retryAfterMs: 0 };
  }
  const { status } = attempt.response;
  if (attempt.accepted) {
    const { url, note } = receiverAddress(attempt.response.body, delivery.endpointUrl);
    if (url !== null) return { outcome: 'delivered', statusCode: status, url, message: 'Delivered', note, retryAfterMs: null };
    return { outcome: 'delivered_no_address', statusCode: status, url: null, message: 'Delivered, no address', note, retryAfterMs: null };
  }
  return { outcome: 'failed', statusCode: status, url: null, message: `Failed: the endpoint answered ${status}`, note: null, retryAfterMs: attempt.retryable ? attempt.retryAfterMs : null };
}

/** The CMS's live address for the post, when it is an absolute http(s) URL without credentials. */
function liveAddress(url: string | null): { url: string | null; note: string | null } {
  if (url === null) return { url: null, note: null };
  const address = usableAddress(url);
  return address instanceof URL ? { url: address.href, note: null } : { url: null, note: `the CMS gave an address that is not usable: the returned URL ${address.slice(0, 200)}` };
}

/** A CMS's failure as an attempt's outcome: retried after the CMS's wait when it is transient, final otherwise. */
function cmsFailure(error: ProviderError, timeoutMs: number): AttemptResult {
  const retryAfter = error.transient ? (error.retryAfterMs ?? 0) : null;
  if (error.timedOut) return { outcome: 'timeout', statusCode: null, url: null, message: `Failed: the CMS did not answer within ${timeoutMs / 1000} seconds`, note: null, retryAfterMs: retryAfter };
  return { outcome: 'failed', statusCode: error.status, url: null, message: `Failed: ${error.message}`, note: null, retryAfterMs: retryAfter, refused: error.kind === 'auth' };
}

/**
 * One attempt at a CMS: a test runs the destination's check (nothing visible changes); an article is placed, updating
 * the post an earlier delivery made (`earlier`). Each call to the CMS has the delivery timeout.
 */
async function placeOnCms(
  db: Kysely<Database>,
  services: JobDeps['services'],
  clock: Clock,
  delivery: PendingDelivery,
  kind: CmsKindName,
  earlier: PlacedPost | null,
): Promise<{ result: AttemptResult; placed: PlacedPost | null }> {
  const timeoutMs = services.timing.webhookTimeoutMs;
  const destination = CMS_KINDS[kind].open(delivery.siteUrl ?? '', delivery.settings, delivery.credentials ?? '{}', cmsDeps(db, clock, services, delivery.workspaceId));
  try {
    if (delivery.event === 'test') {
      const { summary } = await destination.check();
      return { result: { outcome: 'delivered_no_address', statusCode: null, url: null, message: 'Delivered', note: summary, retryAfterMs: null }, placed: null };
    }
    const article = (JSON.parse(delivery.body) as { article: CmsArticle }).article;
    const placed = await destination.place(article, earlier);
    const { url, note } = liveAddress(placed.url);
    if (url !== null) return { result: { outcome: 'delivered', statusCode: null, url, message: 'Delivered', note, retryAfterMs: null }, placed: { ...placed, url } };
    const message = article.status === 'draft' ? 'Delivered as a draft' : 'Delivered, no address';
    return { result: { outcome: 'delivered_no_address', statusCode: null, url: null, message, note, retryAfterMs: null }, placed: { ...placed, url: null } };
  } catch (error) {
    if (error instanceof ProviderError) return { result: cmsFailure(error, timeoutMs), placed: null };
    throw error;
  }
}

/** Where the article landed on this CMS destination before, if it did. */
async function earlierPost(db: Kysely<Database>, delivery: PendingDelivery): Promise<PlacedPost | null> {
  if (delivery.articleId === null) return null;
  const row = await db
    .selectFrom('destination_posts')
    .select(['remote_id', 'remote_url'])
    .where('destination_id', '=', delivery.destinationId)
    .where('article_id', '=', delivery.articleId)
    .executeTakeFirst();
  return row === undefined ? null : { remoteId: row.remote_id, url: row.remote_url };
}

/**
 * Records `delivery.failed` for a delivery that just ended failed, in the transaction that marks it: once per delivery.
 * A destination's test is not an article's delivery, so its failure is only shown where it was asked for.
 */
async function noteFailedDelivery(db: Kysely<Database>, clock: Clock, deliveryId: string, error: string): Promise<void> {
  const row = await db
    .selectFrom('deliveries')
    .innerJoin('destinations', 'destinations.id', 'deliveries.destination_id')
    .leftJoin('articles', 'articles.id', 'deliveries.article_id')
    .select([
      'deliveries.workspace_id as workspaceId',
      'deliveries.event as event',
      'deliveries.attempts as attempts',
      'deliveries.status_code as statusCode',
      'deliveries.article_id as articleId',
      'articles.title as articleTitle',
      'destinations.id as destinationId',
      'destinations.name as destinationName',
      'destinations.kind as destinationKind',
      'destinations.endpoint_url as endpointUrl',
    ])
    .where('deliveries.id', '=', deliveryId)
    .executeTakeFirstOrThrow();
  if (row.event === 'test' || row.articleId === null) return;
  const attempts = row.attempts === 1 ? '1 attempt' : `${row.attempts} attempts`;
  await recordChanges(db, clock, row.workspaceId, [
    {
      kind: 'delivery.failed',
      dedupeKey: deliveryId,
      title: `Delivery of "${row.articleTitle ?? row.articleId}" to ${row.destinationName} failed after ${attempts}: ${error.replace(/^Failed: /, '')}`,
      details: {
        deliveryId,
        event: row.event,
        articleId: row.articleId,
        articleTitle: row.articleTitle,
        destinationId: row.destinationId,
        destinationName: row.destinationName,
        destinationKind: row.destinationKind,
        endpointUrl: row.endpointUrl,
        attempts: row.attempts,
        statusCode: row.statusCode,
        error,
      },
    },
  ]);
}

/**
 * Records one attempt's outcome on the attempt, the delivery and the destination. A delivered article gets its address
 * only from the destination serving the site (feeds never set it), and its render check is scheduled.
 */
async function recordOutcome(
  db: Kysely<Database>,
  clock: Clock,
  delivery: PendingDelivery,
  attemptId: string,
  result: AttemptResult,
  final: boolean,
  renderCheckDelayMs: number,
  placed: PlacedPost | null = null,
): Promise<void> {
  const now = clock.now();
  const delivered = result.outcome === 'delivered' || result.outcome === 'delivered_no_address';
  await db.transaction().execute(async (trx) => {
    // The post exists on the CMS whatever became of the delivery's record: remembered so the next publish updates it.
    if (placed !== null && delivery.articleId !== null) {
      const post = { remote_id: placed.remoteId, remote_url: placed.url, updated_at: now };
      await trx
        .insertInto('destination_posts')
        .values({ destination_id: delivery.destinationId, article_id: delivery.articleId, ...post })
        .onConflict((conflict) => conflict.columns(['destination_id', 'article_id']).doUpdateSet(post))
        .execute();
    }
    await trx
      .updateTable('delivery_attempts')
      .set({ finished_at: now, outcome: result.outcome, status_code: result.statusCode, error: delivered ? result.note : result.message })
      .where('id', '=', attemptId)
      .execute();
    const state = delivered ? 'delivered' : final ? 'failed' : 'pending';
    // Conditional: a delivery another worker already finished (this one outlived its lease) keeps that record.
    const updated = await trx
      .updateTable('deliveries')
      .set({
        state,
        outcome: result.outcome,
        status_code: result.statusCode,
        returned_url: result.url,
        error: delivered ? result.note : result.message,
        completed_at: state === 'pending' ? null : now,
      })
      .where('id', '=', delivery.id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (updated.numUpdatedRows !== 1n) return;
    await trx
      .updateTable('destinations')
      .set({
        last_delivery_at: now,
        last_outcome: result.outcome,
        last_status_code: result.statusCode,
        last_url: result.url,
        last_message: result.message,
        last_note: result.note,
      })
      .where('id', '=', delivery.destinationId)
      .execute();
    if (state === 'failed') await noteFailedDelivery(trx, clock, delivery.id, result.message);
    if (result.refused === true) {
      const destination = await trx.selectFrom('destinations').select(['name', 'credentials']).where('id', '=', delivery.destinationId).executeTakeFirstOrThrow();
      await noteBrokenConnection(trx, clock, delivery.workspaceId, {
        connection: 'destination',
        provider: `${isCmsKind(delivery.kind) ? CMS_KINDS[delivery.kind].label : delivery.kind} (destination ${destination.name})`,
        connectionId: delivery.destinationId,
        credential: destination.credentials ?? '',
        error: result.message.replace(/^Failed: /, ''),
        reconnectAt: `/w/${delivery.workspaceId}/settings`,
      });
    }
    const destination = await trx.selectFrom('destinations').select(['active', 'site_url']).where('id', '=', delivery.destinationId).executeTakeFirstOrThrow();
    const servesSite = destination.active === 1 && destination.site_url !== null;
    if (result.url === null || delivery.articleId === null || delivery.event === 'test' || !servesSite) return;
    await trx.updateTable('articles').set({ url: result.url, updated_at: now }).where('id', '=', delivery.articleId).execute();
    await enqueueJob(trx, clock, {
      workspaceId: delivery.workspaceId,
      kind: 'render_check',
      subjectId: delivery.articleId,
      runAt: now + renderCheckDelayMs,
      maxAttempts: RENDER_CHECK_ATTEMPTS,
    });
  });
}

/**
 * One attempt of one delivery. The attempt is recorded and committed before the request goes out, and its outcome
 * after; a worker that dies in between leaves the delivery pending, and the job is taken over when its lease runs
 * out and sent again with the same webhook-id (at least once; receivers deduplicate).
 */
export const deliverJob: JobHandler = {
  async run(job: ClaimedJob, deps: JobDeps) {
    const { db, clock, services } = deps;
    const delivery = job.subjectId === null ? undefined : await pendingDelivery(db, services.credentials, job.subjectId);
    if (delivery === undefined) return { skipped: 'the delivery is no longer pending (cancelled, done, or its destination was removed)' };
    const attemptId = newId('dat');
    const attempt = delivery.attempts + 1;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('delivery_attempts')
        .values({ id: attemptId, delivery_id: delivery.id, attempt, started_at: clock.now(), finished_at: null, outcome: null, status_code: null, error: null })
        .execute();
      await trx.updateTable('deliveries').set({ attempts: attempt }).where('id', '=', delivery.id).execute();
    });
    await deps.progress(`attempt ${attempt}: sending ${delivery.event} to ${delivery.endpointUrl}`);
    const kind = delivery.kind;
    let result: AttemptResult;
    let placed: PlacedPost | null = null;
    if (isCmsKind(kind)) ({ result, placed } = await placeOnCms(db, services, clock, delivery, kind, await earlierPost(db, delivery)));
    else result = await send(services.outbound, delivery, clock.now(), services.timing.webhookTimeoutMs);
    const willRetry = result.retryAfterMs !== null && job.attempt < job.maxAttempts;
    await recordOutcome(db, clock, delivery, attemptId, result, !willRetry, services.timing.renderCheckDelayMs, placed);
    if (willRetry) throw new RetryableJobError(result.message, result.retryAfterMs ?? 0);
    if (result.outcome === 'failed' || result.outcome === 'timeout') throw new Error(result.message);
    return { deliveryId: delivery.id, attempt, outcome: result.outcome, statusCode: result.statusCode, url: result.url };
  },

  /** A job that ended on an unexpected fault must not leave its delivery pending forever. */
  async onFailed(job, reason, { db, clock }) {
    const deliveryId = job.subjectId;
    if (deliveryId === null) return;
    await db.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('deliveries')
        .set({ state: 'failed', error: reason, completed_at: clock.now() })
        .where('id', '=', deliveryId)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (ended.numUpdatedRows === 1n) await noteFailedDelivery(trx, clock, deliveryId, reason);
    });
  },
};

/** Loads the article's address about two minutes after a delivery returned it, and records whether it renders there. */
export const renderCheckJob: JobHandler = {
  async run(job: ClaimedJob, deps: JobDeps) {
    const { db, clock, services } = deps;
    const article = await db
      .selectFrom('articles')
      .select(['id', 'title', 'url'])
      .where('workspace_id', '=', job.workspaceId)
      .where('id', '=', job.subjectId ?? '')
      .executeTakeFirst();
    if (article?.url == null) return { skipped: 'the article has no address' };
    const url = article.url;
    const check = await checkRendersLive(services.outbound, url, article.title, services.timing.webhookTimeoutMs);
    const now = clock.now();
    const lastLook = job.attempt >= job.maxAttempts;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('articles')
        .set(check.live ? { live_checked_at: now, live_confirmed_at: now, live_check_error: null } : { live_checked_at: now, live_check_error: check.reason })
        .where('id', '=', article.id)
        .execute();
      if (check.live || !lastLook) return;
      // The job is this publish's render check: a later publish of the article checks, and may record, again.
      await recordChanges(trx, clock, job.workspaceId, [
        {
          kind: 'article.not_rendered',
          dedupeKey: `${article.id}:${job.id}`,
          title: `"${article.title}" did not render at ${url} after ${job.maxAttempts} checks: ${check.reason}`,
          details: { articleId: article.id, articleTitle: article.title, url, checks: job.maxAttempts, reason: check.reason },
        },
      ]);
    });
    if (!check.live) throw new RetryableJobError(`${url}: ${check.reason}`);
    return { url: article.url, live: true };
  },
};
