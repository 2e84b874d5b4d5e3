import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChangeSeverity, Database } from '../../db/schema.js';
import { newId } from '../ids.js';
import { CHANGES_PATH, pageUrl } from '../web/paths.js';
import { RetryableJobError, type JobHandler } from '../jobs/worker.js';
import { mailRecipients } from '../notifications/recipients.js';
import { fromJson, toJson } from '../shared/json.js';
import { DAY_MS, utcDay } from '../shared/time.js';
import type { AlertMessage } from './alertFormats.js';
import { sendToChannel, sendToPerson, type SendContext, type SendOutcome } from './alertSend.js';
import { channelRecipient, liveChannels } from './channels.js';
import { queueLater } from './alertQueue.js';
import { CHANGE_SEVERITIES, SEVERITY_RANK } from './kinds.js';
import { CHANGE_COLUMNS, changeRecord, workspaceChanges, type ChangeRecord } from './listChanges.js';

/** Changes one message lists; the rest come in the next message. */
export const MAX_LISTED = 20;
/** Between two messages of one long batch. */
const NEXT_MESSAGE_MS = 60_000;
/** A change older than this when its recipient's turn comes is left to the Changes page and the digest. */
export const ALERT_LOOKBACK_MS = 7 * DAY_MS;
/** People get warning and critical changes by mail; the info kinds are for the channels, the digest and the Changes page. */
export const PEOPLE_MIN_SEVERITY: ChangeSeverity = 'warning';
/** Batches of send_test_alert: recorded like any send, never counted against the day's cap. */
export const TEST_BATCH_PREFIX = 'test:';

/** The dashboard's Changes page of the workspace, where a message's "and N more" leads. */
export const changesPageUrl = (publicUrl: string, workspaceId: string) => `${publicUrl}${pageUrl(workspaceId, CHANGES_PATH)}`;

interface Recipient {
  key: string;
  minSeverity: ChangeSeverity;
  /** Changes detected before this are not this recipient's (a channel added later). */
  since: number;
  send(ctx: SendContext, sendId: string, message: AlertMessage): Promise<SendOutcome>;
}

async function recipientsOf(ctx: SendContext): Promise<Recipient[]> {
  const channels = (await liveChannels(ctx.db, ctx.workspaceId)).map(
    (channel): Recipient => ({ key: channelRecipient(channel.id), minSeverity: channel.min_severity, since: channel.created_at, send: (c, id, message) => sendToChannel(c, channel, id, message) }),
  );
  // Without a mail server alert mail is skipped (the README says so); the channels still work.
  if (ctx.services.notificationMail === undefined) return channels;
  const people = (await mailRecipients(ctx.db, ctx.workspaceId))
    .filter((person) => person.alerts)
    .map((person): Recipient => ({ key: `user:${person.userId}`, minSeverity: PEOPLE_MIN_SEVERITY, since: 0, send: (c, id, message) => sendToPerson(c, person, id, message) }));
  return [...channels, ...people];
}

async function changesByIds(db: Kysely<Database>, workspaceId: string, ids: readonly string[]): Promise<ChangeRecord[]> {
  if (ids.length === 0) return [];
  const rows = await workspaceChanges(db, workspaceId)
    .select(CHANGE_COLUMNS)
    .where('changes.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, changeRecord(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The recipient's changes at or above its severity that no earlier batch of it carried, oldest first. */
async function unsent(db: Kysely<Database>, workspaceId: string, recipient: Recipient, now: number): Promise<ChangeRecord[]> {
  const since = Math.max(recipient.since, now - ALERT_LOOKBACK_MS);
  const severities = CHANGE_SEVERITIES.filter((severity) => SEVERITY_RANK[severity] >= SEVERITY_RANK[recipient.minSeverity]);
  const rows = await workspaceChanges(db, workspaceId)
    .select(CHANGE_COLUMNS)
    .where('changes.detected_at', '>=', since)
    .where('changes.severity', 'in', severities)
    .orderBy('changes.detected_at')
    .orderBy('changes.id')
    .execute();
  const batches = await db.selectFrom('alert_sends').select('change_ids').where('workspace_id', '=', workspaceId).where('recipient_key', '=', recipient.key).where('created_at', '>=', since).execute();
  const sent = new Set(batches.flatMap((batch) => fromJson<StoredBatch>(batch.change_ids).ids));
  return rows.filter((row) => !sent.has(row.id)).map(changeRecord);
}

/** Messages sent (or being sent) to the recipient since the start of the UTC day; tests of a channel do not count. */
async function sentToday(db: Kysely<Database>, workspaceId: string, recipientKey: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('alert_sends')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('workspace_id', '=', workspaceId)
    .where('recipient_key', '=', recipientKey)
    .where('created_at', '>=', utcDay(now))
    .where('batch_key', 'not like', `${TEST_BATCH_PREFIX}%`)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The same changes make the same batch key, so two instances that built the same batch record one row. */
function batchKey(changeIds: readonly string[]): string {
  return createHash('sha256').update(changeIds.join(',')).digest('hex').slice(0, 32);
}

interface PendingSend {
  id: string;
  changeIds: string[];
  message: Omit<AlertMessage, 'changes'>;
}

/** Records the attempt before it is sent, sends, and records its outcome: the row says what reached the outside world. */
async function attempt(ctx: SendContext, recipient: Recipient, send: PendingSend, final: boolean): Promise<SendOutcome> {
  const changes = await changesByIds(ctx.db, ctx.workspaceId, send.changeIds);
  await ctx.db.updateTable('alert_sends').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', send.id).where('state', '=', 'pending').execute();
  const outcome = await recipient.send(ctx, send.id, { ...send.message, changes });
  const state = outcome.ok ? 'sent' : outcome.retryable && !final ? 'pending' : 'failed';
  await ctx.db
    .updateTable('alert_sends')
    .set({ state, status_code: outcome.statusCode, error: outcome.ok ? null : outcome.error.slice(0, 500), sent_at: outcome.ok ? ctx.clock.now() : null })
    .where('id', '=', send.id)
    .where('state', '=', 'pending')
    .execute();
  return outcome;
}

/** What a batch row keeps beside its change ids, so that a retry sends the same message. */
interface StoredBatch {
  ids: string[];
  more: number;
  lastToday: boolean;
}

/**
 * Sends the workspace's alerts: to each live channel and each person whose alert mail is on, one message grouping the
 * changes not yet sent to them at or above their severity, at most the workspace's alertsPerDay messages a UTC day.
 * Each message is recorded (one row per recipient and batch) before it is sent and its outcome after; a batch that
 * met a 429, a 5xx or no answer stays pending and the job's next attempt sends the same batch again. One run per
 * workspace at a time (the jobs table says which runs; a second one leaves its work to a run a minute later), so two
 * instances never build two batches of the same changes.
 */
export const sendAlertsJob: JobHandler = {
  async run(job, deps) {
    const { db, clock, services } = deps;
    const now = clock.now();
    const other = await db
      .selectFrom('jobs')
      .select('id')
      .where('workspace_id', '=', job.workspaceId)
      .where('kind', '=', 'send_alerts')
      .where('state', '=', 'running')
      .where('id', '!=', job.id)
      .where('lease_until', '>=', now)
      .executeTakeFirst();
    if (other !== undefined) {
      // That run may have passed a recipient before this run's changes came: a later run reads them.
      await queueLater(db, clock, job.workspaceId, now + NEXT_MESSAGE_MS);
      return { skipped: `another run (${other.id}) is sending this workspace's alerts`, sent: {}, failed: [] };
    }
    const workspace = await db.selectFrom('workspaces').select(['name', 'alerts_per_day']).where('id', '=', job.workspaceId).executeTakeFirstOrThrow();
    const ctx: SendContext = { db, clock, services, workspaceId: job.workspaceId };
    const final = job.attempt >= job.maxAttempts;
    const base = { workspaceName: workspace.name, alertsPerDay: workspace.alerts_per_day, changesUrl: changesPageUrl(services.publicUrl, job.workspaceId), test: false };
    const sent: Record<string, number> = {};
    const failures: string[] = [];
    let retryAfter = 0;
    let retry = false;
    let again: 'soon' | 'tomorrow' | undefined;

    for (const recipient of await recipientsOf(ctx)) {
      // The batch left pending by an earlier attempt goes first, the same as it was; then the changes since, if it went.
      for (let resent = false; ; resent = true) {
        const pending = await db.selectFrom('alert_sends').select(['id', 'change_ids']).where('workspace_id', '=', job.workspaceId).where('recipient_key', '=', recipient.key).where('state', '=', 'pending').orderBy('created_at').executeTakeFirst();
        let send: PendingSend | undefined;
        if (pending !== undefined) {
          const stored = fromJson<StoredBatch>(pending.change_ids);
          send = { id: pending.id, changeIds: stored.ids, message: { ...base, more: stored.more, lastToday: stored.lastToday } };
        } else {
          const count = await sentToday(db, job.workspaceId, recipient.key, now);
          const waiting = await unsent(db, job.workspaceId, recipient, now);
          if (waiting.length === 0) break;
          if (count >= workspace.alerts_per_day) {
            again ??= 'tomorrow';
            break;
          }
          const listed = waiting.slice(0, MAX_LISTED);
          const message = { more: waiting.length - listed.length, lastToday: count + 1 >= workspace.alerts_per_day };
          if (message.more > 0) again = message.lastToday ? (again ?? 'tomorrow') : 'soon';
          const changeIds = listed.map((change) => change.id);
          const id = newId('als');
          const inserted = await db
            .insertInto('alert_sends')
            .values({ id, workspace_id: job.workspaceId, recipient_key: recipient.key, batch_key: batchKey(changeIds), change_ids: toJson({ ids: changeIds, ...message } satisfies StoredBatch), state: 'pending', attempts: 0, status_code: null, error: null, created_at: now, sent_at: null })
            .onConflict((oc) => oc.columns(['workspace_id', 'recipient_key', 'batch_key']).doNothing())
            .executeTakeFirst();
          if ((inserted.numInsertedOrUpdatedRows ?? 0n) !== 1n) break;
          send = { id, changeIds, message: { ...base, ...message } };
        }
        await deps.progress(`sending ${send.changeIds.length} change(s) to ${recipient.key}`);
        const outcome = await attempt(ctx, recipient, send, final);
        if (outcome.ok) sent[recipient.key] = (sent[recipient.key] ?? 0) + send.changeIds.length;
        else {
          failures.push(`${recipient.key}: ${outcome.error}`);
          if (outcome.retryable && !final) {
            retry = true;
            retryAfter = Math.max(retryAfter, outcome.retryAfterMs);
          }
        }
        if (!outcome.ok || pending === undefined || resent) break;
      }
    }

    if (again !== undefined) await queueLater(db, clock, job.workspaceId, again === 'soon' ? now + NEXT_MESSAGE_MS : utcDay(now) + DAY_MS);
    if (retry) {
      throw new RetryableJobError(`alerts not delivered yet: ${failures.join('; ')}`, retryAfter);
    }
    return { sent, failed: failures };
  },

  /** A run that ended on a fault leaves no batch pending for ever: it is recorded failed, and the next changes make a new one. */
  async onFailed(job, reason, { db }) {
    await db.updateTable('alert_sends').set({ state: 'failed', error: reason.slice(0, 500) }).where('workspace_id', '=', job.workspaceId).where('state', '=', 'pending').execute();
  },
};
