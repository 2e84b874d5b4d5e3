import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/secrets.js';
import { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { Receiver } from './receiver.js';
import { deliveriesOf, destinationAt, destinationOf, ok, publish, startWithReceiver, stopWithReceiver, writtenArticle } from './support.js';

const DESTINATIONS = '/api/v1/destinations';

describe('destinations', () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    ({ t, receiver } = await startWithReceiver());
  });
  afterAll(() => stopWithReceiver({ t, receiver }));

  describe('create_destination', () => {
    it('returns the signing secret once, stores only what signing and crawler reports need, and never shows it again', async () => {
      const ws = await t.workspace();
      const created = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'Main blog', endpointUrl: 'https://hooks.acme.example/sightline', siteUrl: 'https://acme.example/blog' });
      expect(created.signingSecret).toMatch(/^whsec_/);
      expect(created.destination).toEqual({
        destinationId: created.destinationId,
        name: 'Main blog',
        kind: 'webhook',
        endpointUrl: 'https://hooks.acme.example/sightline',
        siteUrl: 'https://acme.example/blog',
        publishAs: 'publish',
        active: true,
        role: 'site',
        lastDelivery: null,
        createdAt: new Date(t.clock.now()).toISOString(),
        settings: null,
      });
      const row = await t.db.selectFrom('destinations').selectAll().where('id', '=', String(created.destinationId)).executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(sha256Hex(String(created.signingSecret)));
      const listed = await ok(t, ws.key, 'GET', DESTINATIONS);
      expect(listed).toEqual({ destinations: [created.destination] });
      expect(JSON.stringify(listed)).not.toContain(String(created.signingSecret).slice(6));
    });

    it('makes the first destination with a site address active; later ones and feeds are not', async () => {
      const ws = await t.workspace();
      const feed = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'Feed', endpointUrl: 'https://feed.example/in', publishAs: 'draft' });
      expect(feed.destination).toMatchObject({ active: false, role: 'feed', siteUrl: null, publishAs: 'draft' });
      const first = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'Site', endpointUrl: 'https://acme.example/hook', siteUrl: 'https://acme.example' });
      expect(first.destination).toMatchObject({ active: true, role: 'site' });
      const second = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'New site', endpointUrl: 'https://new.acme.example/hook', siteUrl: 'https://new.acme.example' });
      expect(second.destination).toMatchObject({ active: false, role: 'site' });
    });

    it.each([
      ['an http endpoint', { endpointUrl: 'http://acme.example/hook' }, 'endpointUrl: must be an https URL'],
      ['a relative endpoint', { endpointUrl: '/hook' }, 'endpointUrl: must be an https URL'],
      ['an endpoint with credentials', { endpointUrl: 'https://user:pw@acme.example/hook' }, 'endpointUrl: cannot be delivered to'],
      ['a site address that is not http(s)', { siteUrl: 'ftp://acme.example' }, 'siteUrl: must be an absolute http(s) URL'],
      ['a publish-as value not on the list', { publishAs: 'live' }, 'publishAs: must be one of publish, draft'],
      ['an empty name', { name: ' ' }, 'name: must not be empty'],
    ])('refuses %s with a 400 naming the field and stores nothing', async (_case, bad, message) => {
      const ws = await t.workspace();
      const before = await snapshot(t.db);
      const answer = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Blog', endpointUrl: 'https://acme.example/hook', ...bad });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain(message);
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('allows 10 destinations per workspace', async () => {
      const ws = await t.workspace();
      for (let i = 0; i < 10; i++) await ok(t, ws.key, 'POST', DESTINATIONS, { name: `Feed ${i}`, endpointUrl: `https://feed${i}.example/in` });
      const refused = await t.rest(await t.key(ws.workspaceId, ['manage:org']), 'POST', DESTINATIONS, { name: 'Eleventh', endpointUrl: 'https://feed11.example/in' });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain('at most 10 destinations');
    });
  });

  describe('activate_destination', () => {
    it('keeps one destination active at a time and refuses a feed', async () => {
      const ws = await t.workspace();
      const first = await destinationAt(t, ws, receiver, '/a-first', { siteUrl: 'https://acme.example' });
      const second = await destinationAt(t, ws, receiver, '/a-second', { siteUrl: 'https://acme.example' });
      const feed = await destinationAt(t, ws, receiver, '/a-feed');
      const answer = await ok(t, ws.key, 'POST', `${DESTINATIONS}/activate`, { destinationId: second });
      expect(answer.destination).toMatchObject({ destinationId: second, active: true });
      expect(await destinationOf(t, ws, first)).toMatchObject({ active: false });
      const refused = await t.rest(ws.key, 'POST', `${DESTINATIONS}/activate`, { destinationId: feed });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/^destinationId: .*no siteUrl/);
      expect(await destinationOf(t, ws, second)).toMatchObject({ active: true });
    });

    it('sends the next publish to the newly active destination (and feeds), not the old one', async () => {
      const ws = await t.workspace();
      const old = await destinationAt(t, ws, receiver, '/b-old', { siteUrl: 'https://acme.example' });
      const now = await destinationAt(t, ws, receiver, '/b-new', { siteUrl: 'https://acme.example' });
      await ok(t, ws.key, 'POST', `${DESTINATIONS}/activate`, { destinationId: now });
      await publish(t, ws, await writtenArticle(t, ws));
      await t.jobs.drain();
      expect(receiver.at('/b-new')).toHaveLength(1);
      expect(receiver.at('/b-old')).toHaveLength(0);
      expect(await deliveriesOf(t, old)).toEqual([]);
    });
  });

  describe('remove_destination', () => {
    it('cancels what was not sent yet, never delivers to it again, and hides it', async () => {
      const ws = await t.workspace();
      const site = await destinationAt(t, ws, receiver, '/c-site', { siteUrl: 'https://acme.example' });
      const feed = await destinationAt(t, ws, receiver, '/c-feed');
      const articleId = await writtenArticle(t, ws);
      await publish(t, ws, articleId);
      const removed = await ok(t, ws.key, 'POST', `${DESTINATIONS}/remove`, { destinationId: feed });
      expect(removed).toEqual({ destinationId: feed, removed: true, wasActive: false, cancelledDeliveries: 1 });
      await t.jobs.drain();
      expect(receiver.at('/c-feed')).toHaveLength(0);
      expect(receiver.at('/c-site')).toHaveLength(1);
      expect((await deliveriesOf(t, feed)).map((d) => d.state)).toEqual(['cancelled']);
      // Publishing again goes to the site only; the removed destination is gone from every view and operation.
      const again = await publish(t, ws, articleId);
      expect((again.deliveries as Array<{ destinationId: string }>).map((d) => d.destinationId)).toEqual([site]);
      const { destinations } = (await ok(t, ws.key, 'GET', DESTINATIONS)) as { destinations: Array<{ destinationId: string }> };
      expect(destinations.map((d) => d.destinationId)).toEqual([site]);
      for (const path of ['/remove', '/activate', '/test']) {
        const answer = await t.rest(ws.key, 'POST', `${DESTINATIONS}${path}`, { destinationId: feed });
        expect(answer.status).toBe(404);
        expect(answer.body.error).toBe(`destination ${feed} not found in this workspace`);
      }
    });

    it('leaves no destination serving the site after removing the active one, so publishing asks for one', async () => {
      const ws = await t.workspace();
      const site = await destinationAt(t, ws, receiver, '/d-site', { siteUrl: 'https://acme.example' });
      await ok(t, ws.key, 'POST', `${DESTINATIONS}/remove`, { destinationId: site });
      const answer = await t.rest(ws.key, 'POST', '/api/v1/content/publish', { contentId: await writtenArticle(t, ws), confirm: true });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain('create_destination');
    });
  });

  describe('send_test_event', () => {
    it('queues a signed test event with a sample article and records the outcome on the destination', async () => {
      const ws = await t.workspace();
      const id = await destinationAt(t, ws, receiver, '/e-test', { siteUrl: 'https://acme.example', publishAs: 'draft' });
      const answer = await ok(t, ws.key, 'POST', `${DESTINATIONS}/test`, { destinationId: id });
      expect(answer).toEqual({ destinationId: id, deliveryId: expect.stringMatching(/^dlv_/), jobId: expect.stringMatching(/^job_/), event: 'test', queued: true });
      await t.jobs.drain();
      const [delivery] = receiver.at('/e-test');
      expect(receiver.problems).toEqual([]);
      expect(delivery!.headers['x-service-event']).toBe('test');
      expect(delivery!.headers['webhook-id']).toBe(answer.deliveryId);
      expect(delivery!.body).toMatchObject({ event: 'test', timestamp: t.clock.now(), article: { status: 'draft', slug: 'sightline-test-event' } });
      expect((await destinationOf(t, ws, id)).lastDelivery).toEqual({
        at: new Date(t.clock.now()).toISOString(),
        outcome: 'delivered_no_address',
        statusCode: 200,
        url: null,
        statusMessage: 'Delivered, no address',
        note: null,
      });
    });

    it('sends a test event once: a failure is recorded, not retried', async () => {
      const ws = await t.workspace();
      const id = await destinationAt(t, ws, receiver, '/f-test');
      receiver.reply('/f-test', { status: 503 });
      await ok(t, ws.key, 'POST', `${DESTINATIONS}/test`, { destinationId: id });
      await t.jobs.drain();
      t.clock.advance(3_600_000);
      await t.jobs.drain();
      expect(receiver.at('/f-test')).toHaveLength(1);
      expect((await destinationOf(t, ws, id)).lastDelivery).toMatchObject({ outcome: 'failed', statusCode: 503, statusMessage: 'Failed: the endpoint answered 503' });
      expect((await deliveriesOf(t, id)).map((d) => [d.state, d.attempts])).toEqual([['failed', 1]]);
    });
  });
});

describe('outbound address rules', () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await TestService.start({ timing: { webhookTimeoutMs: 500 } });
    receiver = await Receiver.start({ host: 'localhost', clock: () => t.clock.now() });
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('refuses a literal private address at creation, naming endpointUrl', async () => {
    const ws = await t.workspace();
    const answer = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Local', endpointUrl: 'https://127.0.0.1:8443/hook' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('endpointUrl: cannot be delivered to: https://127.0.0.1:8443/hook is not a public address (private, loopback, link-local and reserved ranges and IPv4 embedded in IPv6 are refused; ALLOW_PRIVATE_TARGETS allows them)');
  });

  it('never sends to a name that resolves to a private address: the delivery fails and says why', async () => {
    const ws = await t.workspace();
    const id = await destinationAt(t, ws, receiver, '/private', { siteUrl: 'https://acme.example' });
    await publish(t, ws, await writtenArticle(t, ws));
    await t.jobs.drain();
    expect(receiver.received).toEqual([]);
    const { lastDelivery } = await destinationOf(t, ws, id);
    expect(lastDelivery).toMatchObject({ outcome: 'failed', statusCode: null, statusMessage: expect.stringMatching(/^Failed: .*resolves to an address that is not public \(private, loopback/) });
  });
});
