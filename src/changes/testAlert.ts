import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import type { Services } from '../outsideServices.js';
import { toIso } from '../shared/time.js';
import { toJson } from '../shared/json.js';
import { changesPageUrl, TEST_BATCH_PREFIX } from './alertJob.js';
import { sendToChannel } from './alertSend.js';
import { channelRecipient, findChannel } from './channels.js';
import type { ChangeRecord } from './listChanges.js';

/** The sample change of a test alert: a real kind with plausible figures, marked as a sample. */
function sampleChange(now: number): ChangeRecord {
  return {
    id: 'chg_test_sample',
    kind: 'citation.lost',
    severity: 'warning',
    title: 'Sample: ChatGPT stopped citing acme.example for this query',
    detectedAt: toIso(now),
    engine: 'chatgpt',
    queryId: null,
    query: 'best crm for dentists',
    runId: null,
    details: { sample: true },
  };
}

export async function describeTestAlert(db: Kysely<Database>, workspaceId: string, channelId: string): Promise<string> {
  const channel = await findChannel(db, workspaceId, channelId);
  return `Would send one sample alert (a citation.lost change marked as a sample) to ${channel.name} (${channel.kind}) now and report its outcome; it does not count against the day's alerts.`;
}

/** Sends one sample message to a channel now, recorded before and after like every alert, and answers how it went. */
export async function sendTestAlert(db: Kysely<Database>, clock: Clock, services: Services, workspaceId: string, channelId: string) {
  const channel = await findChannel(db, workspaceId, channelId);
  const workspace = await db.selectFrom('workspaces').select('name').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const id = newId('als');
  await db
    .insertInto('alert_sends')
    .values({ id, workspace_id: workspaceId, recipient_key: channelRecipient(channel.id), batch_key: `${TEST_BATCH_PREFIX}${id}`, change_ids: toJson({ ids: [], more: 0, lastToday: false }), state: 'pending', attempts: 1, status_code: null, error: null, created_at: clock.now(), sent_at: null })
    .execute();
  const message = { workspaceName: workspace.name, changes: [sampleChange(clock.now())], more: 0, lastToday: false, alertsPerDay: 0, changesUrl: changesPageUrl(services.publicUrl, workspaceId), test: true };
  const outcome = await sendToChannel({ db, clock, services, workspaceId }, channel, id, message);
  const error = outcome.ok ? null : outcome.error.slice(0, 500);
  await db
    .updateTable('alert_sends')
    .set({ state: outcome.ok ? 'sent' : 'failed', status_code: outcome.statusCode, error, sent_at: outcome.ok ? clock.now() : null })
    .where('id', '=', id)
    .execute();
  return { channelId: channel.id, delivered: outcome.ok, statusCode: outcome.statusCode, error };
}
