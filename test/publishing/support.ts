import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/clock.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import type { Timing } from '../../src/outsideServices.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { Receiver } from './receiver.js';

export interface PublishingSetup {
  t: TestService;
  receiver: Receiver;
}

/**
 * A service allowed to reach the local https receiver (it listens on 127.0.0.1), with short delivery timeouts, and the
 * receiver on the service's clock (for the Standard Webhooks replay window).
 */
export async function startWithReceiver(timing: Partial<Timing> = {}): Promise<PublishingSetup> {
  const t = await TestService.start({ outbound: { allowPrivateAddresses: true }, timing: { webhookTimeoutMs: 500, renderCheckDelayMs: 120_000, ...timing } });
  return { t, receiver: await Receiver.start({ clock: () => t.clock.now() }) };
}

export async function stopWithReceiver({ t, receiver }: PublishingSetup): Promise<void> {
  await receiver.close();
  await t.close();
}

/** A planned article given a body directly, as the write job leaves it: a draft. */
export async function writtenArticle(t: { db: Kysely<Database>; clock: Clock }, ws: Pick<TestWorkspace, 'workspaceId'>, title = 'How to pick a CRM for dentists'): Promise<string> {
  const id = await insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: title.toLowerCase(), title, scheduledAt: t.clock.now(), language: 'en' });
  await t.db
    .updateTable('articles')
    .set({
      status: 'draft',
      markdown: `# ${title}\n\nPick one that books appointments and sends reminders.`,
      faq: JSON.stringify([{ question: 'Do dentists need a CRM?', answer: 'Yes, to keep patients coming back.' }]),
      keywords: JSON.stringify(['crm for dentists', 'dental crm']),
      meta_title: 'CRM for dentists',
      meta_description: 'How to choose a CRM for a dental practice.',
      author: JSON.stringify({ name: 'Dana Smile', bio: 'Practice manager' }),
      category_name: 'Guides',
      word_count: 12,
      written_at: t.clock.now(),
    })
    .where('id', '=', id)
    .execute();
  return id;
}

export async function ok(t: TestService, key: string, method: 'GET' | 'POST', path: string, input: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const answer = await t.rest(key, method, path, input);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

/** A destination whose endpoint is `path` on the receiver, registered there with its signing secret. */
export async function destinationAt(
  t: TestService,
  ws: TestWorkspace,
  receiver: Receiver,
  path: string,
  options: { siteUrl?: string; publishAs?: 'publish' | 'draft'; name?: string } = {},
): Promise<string> {
  const data = await ok(t, ws.key, 'POST', '/api/v1/destinations', { name: options.name ?? path, endpointUrl: receiver.url(path), ...options });
  receiver.register(path, String(data.signingSecret));
  return String(data.destinationId);
}

export async function publish(t: TestService, ws: TestWorkspace, contentId: string): Promise<Record<string, unknown>> {
  return ok(t, ws.key, 'POST', '/api/v1/content/publish', { contentId, confirm: true });
}

export async function destinationOf(t: TestService, ws: TestWorkspace, destinationId: string): Promise<Record<string, unknown>> {
  const { destinations } = (await ok(t, ws.key, 'GET', '/api/v1/destinations')) as { destinations: Array<Record<string, unknown>> };
  const found = destinations.find((d) => d.destinationId === destinationId);
  expect(found, `destination ${destinationId} is listed`).toBeDefined();
  return found!;
}

export function article(t: TestService, id: string) {
  return t.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export function deliveriesOf(t: TestService, destinationId: string) {
  return t.db.selectFrom('deliveries').selectAll().where('destination_id', '=', destinationId).orderBy('created_at').execute();
}
