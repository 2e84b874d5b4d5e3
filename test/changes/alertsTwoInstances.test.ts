import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { recordChanges, type NoticedChange } from '../../src/changes/record.js';
import { sharedTestDatabase } from '../support/database.js';
import { START_TIME, TestService } from '../support/harness.js';
import { AlertEndpoints } from './alertEndpoints.js';

const clock = new ManualClock(START_TIME);
let shared: Awaited<ReturnType<typeof sharedTestDatabase>>;
let first: TestService;
let second: TestService;
let endpoints: AlertEndpoints;

beforeAll(async () => {
  shared = await sharedTestDatabase();
  const options = { clock, outbound: { allowPrivateAddresses: true }, timing: { webhookTimeoutMs: 2000 } };
  [first, second] = await Promise.all([TestService.start({ ...options, database: shared.open() }), TestService.start({ ...options, database: shared.open() })]);
  endpoints = await AlertEndpoints.start(() => clock.now());
});

afterAll(async () => {
  await endpoints.close();
  await Promise.all([first.close(), second.close()]);
  await shared.dispose();
});

const lost = (n: number): NoticedChange => ({ kind: 'citation.lost', dedupeKey: `q${n}`, title: `ChatGPT stopped citing acme.example for query ${n}`, details: {}, engine: 'chatgpt' });

it('two workers sending one workspace\u2019s alerts send each message once and each event once', async () => {
  const ws = await first.workspace();
  const post = async (service: TestService, path: string, input: Record<string, unknown>) => {
    const answer = await service.rest(ws.key, 'POST', path, input);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as Record<string, unknown>;
  };
  const destination = await post(first, '/api/v1/destinations', { name: 'Events', endpointUrl: endpoints.url('/events') });
  endpoints.eventSecret = String(destination.signingSecret);
  const slack = await post(first, '/api/v1/changes/channels', { kind: 'slack', name: 'Team', url: endpoints.url('/slack'), minSeverity: 'info', confirm: true });
  await post(second, '/api/v1/changes/channels', { kind: 'webhook', name: 'Events', destinationId: destination.destinationId, minSeverity: 'info', confirm: true });

  // Changes recorded through either instance while both workers drain; a run that finds the other one busy waits its turn.
  for (let round = 0; round < 5; round++) {
    const through = round % 2 === 0 ? first : second;
    await through.db.transaction().execute((trx) => recordChanges(trx, clock, ws.workspaceId, [lost(2 * round), lost(2 * round + 1)]));
    await Promise.all([first.jobs.drain(), second.jobs.drain()]);
    clock.advance(60 * 60_000);
  }
  for (let i = 0; i < 3; i++) {
    await Promise.all([first.jobs.drain(), second.jobs.drain()]);
    clock.advance(60 * 60_000);
  }

  expect(endpoints.problems).toEqual([]);
  const events = endpoints.events.map((event) => event.change.title).sort();
  expect(events).toEqual(Array.from({ length: 10 }, (_, n) => `ChatGPT stopped citing acme.example for query ${n}`).sort());
  const slackLines = endpoints.at('/slack').flatMap((r) => JSON.stringify(r.body.blocks).match(/query \d+/g) ?? []);
  expect(slackLines.sort()).toEqual(Array.from({ length: 10 }, (_, n) => `query ${n}`).sort());
  const rows = await first.db.selectFrom('alert_sends').select(['recipient_key', 'state']).where('workspace_id', '=', ws.workspaceId).execute();
  expect(rows.every((row) => row.state === 'sent')).toBe(true);
  // One request per recorded message, and one per event: nothing went out twice.
  expect(endpoints.at('/slack')).toHaveLength(rows.filter((row) => row.recipient_key === `channel:${String(slack.channelId)}`).length);
  expect(endpoints.at('/events')).toHaveLength(10);
});
