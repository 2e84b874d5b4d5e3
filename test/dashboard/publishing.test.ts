import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryOutcome } from '../../db/schema.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { signedInVisitor } from './formVisitor.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function signedIn(role: 'owner' | 'member') {
  const signed = await signedInVisitor(t, role, 'publishing');
  return { ...signed, back: `/w/${signed.ws.workspaceId}/publishing` };
}

async function createDestination(ws: TestWorkspace, name = 'Main blog'): Promise<string> {
  const answer = await t.rest(ws.key, 'POST', '/api/v1/destinations', { name, endpointUrl: 'https://receiver.example/hook', siteUrl: 'https://acme.example/blog' });
  return (answer.body.data as { destinationId: string }).destinationId;
}

let seeded = 0;
/** A delivery as the worker leaves it, at a distinct time so the log's order is known. */
async function seedDelivery(ws: TestWorkspace, destinationId: string, outcome: DeliveryOutcome | null, details: { statusCode?: number; error?: string } = {}): Promise<string> {
  seeded += 1;
  const id = `dlv_seed${String(seeded).padStart(4, '0')}`;
  const createdAt = t.clock.now() + seeded * 1000;
  await t.db
    .insertInto('deliveries')
    .values({
      id,
      workspace_id: ws.workspaceId,
      destination_id: destinationId,
      article_id: null,
      event: 'test',
      body: '{}',
      state: outcome === null ? 'pending' : outcome.startsWith('delivered') ? 'delivered' : 'failed',
      attempts: outcome === null ? 0 : 1,
      outcome,
      status_code: details.statusCode ?? null,
      returned_url: null,
      error: details.error ?? null,
      created_at: createdAt,
      completed_at: outcome === null ? null : createdAt + 500,
    })
    .execute();
  return id;
}

describe('Publishing pages', () => {
  it('creates a destination from the form and shows its signing secret once', async () => {
    const { visitor, post, back } = await signedIn('owner');
    const answer = await post('create_destination', { show: 'result', name: 'Main blog', endpointUrl: 'https://receiver.example/hook', siteUrl: 'https://acme.example/blog', publishAs: 'publish' });
    expect(answer.status).toBe(200);
    const result = await answer.text();
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(result)?.[0];
    expect(secret).toBeDefined();
    const list = await (await visitor.request(back)).text();
    expect(list).toContain('<th scope="row">Main blog</th>');
    expect(list).toContain('Site, active');
    expect(list).not.toContain(secret!);
  });

  it('queues a test event, activates another destination and removes one (no dry run: it answers at once)', async () => {
    const { ws, visitor, post, back } = await signedIn('owner');
    const first = await createDestination(ws, 'Main blog');
    const second = await createDestination(ws, 'New blog');
    const sent = await post('send_test_event', { destinationId: first });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`${back}?done=send_test_event`);
    expect(await t.db.selectFrom('deliveries').select(['event', 'state']).where('destination_id', '=', first).execute()).toEqual([{ event: 'test', state: 'pending' }]);
    expect(await (await visitor.request(`${back}?done=send_test_event`)).text()).toContain('Done: send test event.');
    expect((await post('activate_destination', { destinationId: second })).status).toBe(303);
    const activeRows = await t.db.selectFrom('destinations').select(['id', 'active']).where('workspace_id', '=', ws.workspaceId).orderBy('created_at').execute();
    expect(activeRows.map((row) => [row.id, row.active])).toEqual([
      [first, 0],
      [second, 1],
    ]);
    const removed = await post('remove_destination', { destinationId: first });
    expect(removed.status).toBe(303);
    expect(await t.db.selectFrom('deliveries').select('state').where('destination_id', '=', first).execute()).toEqual([{ state: 'cancelled' }]);
    const list = await (await visitor.request(back)).text();
    expect(list).not.toContain('<th scope="row">Main blog</th>');
    expect(list).toContain('<th scope="row">New blog</th>');
  });

  it('shows a member the destinations without the owner’s controls, and the operation refuses a member’s post', async () => {
    const { ws, visitor, post, back } = await signedIn('member');
    const destinationId = await createDestination(ws);
    const list = await (await visitor.request(back)).text();
    expect(list).toContain('<th scope="row">Main blog</th>');
    expect(list).not.toContain('/do/remove_destination');
    expect(list).not.toContain('/do/create_destination');
    const refused = await post('remove_destination', { destinationId });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('manage:org');
  });

  it('lists seeded deliveries newest first with their outcomes, filtered by outcome and destination', async () => {
    const { ws, visitor } = await signedIn('member');
    const main = await createDestination(ws, 'Main blog');
    const feed = await createDestination(ws, 'Partner feed');
    await seedDelivery(ws, main, 'delivered', { statusCode: 200 });
    await seedDelivery(ws, main, 'failed', { statusCode: 500, error: 'the endpoint answered 500' });
    await seedDelivery(ws, feed, 'timeout', { error: 'the endpoint did not answer within 30 seconds' });
    const logPath = `/w/${ws.workspaceId}/publishing/deliveries`;
    const page = await (await visitor.request(logPath)).text();
    expect(page).toContain('<h1>Delivery log</h1>');
    expect(page).toContain('3 deliveries.');
    const outcomes = [...page.matchAll(/<td>(delivered|failed|timeout)<\/td>\n<td class="num">/g)].map((match) => match[1]);
    expect(outcomes).toEqual(['timeout', 'failed', 'delivered']);
    expect(page).toContain('the endpoint answered 500');
    const failed = await (await visitor.request(`${logPath}?outcome=failed`)).text();
    expect(failed).toContain('1 delivery.');
    expect(failed).toContain('<option value="failed" selected>');
    const toFeed = await (await visitor.request(`${logPath}?destinationId=${feed}`)).text();
    expect(toFeed).toContain('the endpoint did not answer within 30 seconds');
    expect(toFeed).not.toContain('the endpoint answered 500');
    await t.rest(ws.key, 'POST', '/api/v1/destinations/remove', { destinationId: feed });
    const removed = await (await visitor.request(`${logPath}?destinationId=${feed}`)).text();
    expect(removed).toContain(`<option value="${feed}" selected>Partner feed (removed)</option>`);
    expect(removed).toContain('the endpoint did not answer within 30 seconds');
  });
});

describe('list_deliveries', () => {
  it('pages the log newest first, keeps a removed destination’s deliveries, and refuses another workspace’s destination', async () => {
    const ws = await t.workspace();
    const destinationId = await createDestination(ws);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await seedDelivery(ws, destinationId, 'delivered', { statusCode: 200 }));
    await t.rest(ws.key, 'POST', '/api/v1/destinations/remove', { destinationId });
    const first = await t.rest(ws.key, 'GET', '/api/v1/deliveries', { destinationId, limit: 2 });
    expect(first.status).toBe(200);
    const data = first.body.data as { total: number; nextPage: number | null; deliveries: { deliveryId: string; destinationName: string; outcome: string; statusCode: number }[] };
    expect(data).toMatchObject({ total: 3, nextPage: 2 });
    expect(data.deliveries.map((row) => row.deliveryId)).toEqual([ids[2], ids[1]]);
    expect(data.deliveries[0]).toMatchObject({ destinationName: 'Main blog', outcome: 'delivered', statusCode: 200 });
    const second = await t.rest(ws.key, 'GET', '/api/v1/deliveries', { destinationId, limit: 2, page: 2 });
    expect((second.body.data as { deliveries: { deliveryId: string }[]; nextPage: null }).deliveries.map((row) => row.deliveryId)).toEqual([ids[0]]);
    const other = await t.workspace({ name: 'Other Co', site: 'https://other.example' });
    const foreign = await t.rest(other.key, 'GET', '/api/v1/deliveries', { destinationId });
    expect(foreign.status).toBe(404);
    expect((await t.rest(other.key, 'GET', '/api/v1/deliveries')).body.data).toMatchObject({ total: 0, deliveries: [] });
  });
});
