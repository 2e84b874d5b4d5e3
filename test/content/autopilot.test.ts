import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/harness.js';
import type { Receiver } from '../publishing/receiver.js';
import { article, commit, DAY, ok } from './calendarSupport.js';
import { startWithReceiver, stopWithReceiver } from '../publishing/support.js';

let t: TestService;
let receiver: Receiver;

beforeAll(async () => {
  ({ t, receiver } = await startWithReceiver({ webhookTimeoutMs: 2000 }));
});
afterAll(() => stopWithReceiver({ t, receiver }));

const MINUTE = 60_000;

describe('from a tracked query to a live article, then on autopilot', () => {
  it('plans, writes, publishes, confirms live; then auto-write and auto-publish take the next slot by themselves', async () => {
    const ws = await t.workspace();
    const created = await ok(t, ws, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: receiver.url('/hook'), siteUrl: receiver.origin });
    receiver.register('/hook', String(created.signingSecret));

    const { planned } = await commit(t, ws, 2, 'Autopilot');
    const [first, second] = planned as [(typeof planned)[number], (typeof planned)[number]];

    // By hand first: the autopilot is off, so nothing happens to the calendar by itself.
    t.clock.set(Date.parse(first.scheduledAt) - DAY);
    await t.jobs.drain();
    expect((await article(t, first.contentId)).status).toBe('planned');
    await ok(t, ws, 'POST', '/api/v1/content/generate', { contentId: first.contentId, confirm: true });
    await t.jobs.drain();
    expect((await article(t, first.contentId)).status).toBe('draft');
    expect((await t.rest(ws.key, 'POST', '/api/v1/settings/articles', { autoWrite: true })).status).toBe(400);

    receiver.reply('/hook', { json: { ok: true, url: receiver.url('/blog/autopilot-1') } });
    receiver.page('/blog/autopilot-1', '<html><body><h1>Autopilot 1</h1></body></html>');
    await ok(t, ws, 'POST', '/api/v1/content/publish', { contentId: first.contentId, confirm: true });
    await t.jobs.drain();
    expect(receiver.problems).toEqual([]);
    t.clock.advance(2 * MINUTE);
    await t.jobs.drain();
    expect((await article(t, first.contentId)).live_confirmed_at).not.toBeNull();

    // One article confirmed live: auto-write is available now.
    await ok(t, ws, 'POST', '/api/v1/settings/articles', { autoWrite: true, autoPublish: true });
    receiver.reply('/hook', { json: { data: { url: receiver.url('/blog/autopilot-2') } } });

    // Not yet: the second slot is more than a day away.
    t.clock.set(Date.parse(second.scheduledAt) - DAY - 2 * MINUTE);
    await t.jobs.drain();
    expect((await article(t, second.contentId)).write_requested_at).toBeNull();

    // A day ahead of its slot it is written; the slot does not move.
    t.clock.advance(2 * MINUTE);
    await t.jobs.drain();
    expect(await article(t, second.contentId)).toMatchObject({ status: 'draft', scheduled_at: Date.parse(second.scheduledAt) });
    expect(receiver.at('/hook')).toHaveLength(1);

    // At its slot it is published, and the receiver's URL becomes its address.
    t.clock.set(Date.parse(second.scheduledAt));
    await t.jobs.drain();
    expect(await article(t, second.contentId)).toMatchObject({ status: 'published', url: receiver.url('/blog/autopilot-2') });
    expect(receiver.at('/hook').map((d) => [d.body.event, d.body.article.id])).toEqual([
      ['article.published', first.contentId],
      ['article.published', second.contentId],
    ]);
  });
});
