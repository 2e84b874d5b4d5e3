import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChanges, type NoticedChange } from '../../src/changes/record.js';
import { DAY_MS, utcDay } from '../../src/shared/time.js';
import { FakeSmtp } from '../outreach/fakes/mailServers.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { AlertEndpoints } from './alertEndpoints.js';

let t: TestService;
let endpoints: AlertEndpoints;
let smtp: FakeSmtp;

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  t = await TestService.start({
    outbound: { allowPrivateAddresses: true },
    timing: { webhookTimeoutMs: 2000 },
    env: { SMTP_URL: `smtp://ada%40acme.example:smtp-secret@127.0.0.1:${smtp.port}`, MAIL_FROM: 'Sightline <alerts@sightline.example>', MAIL_ALLOW_INSECURE: '1' },
  });
  endpoints = await AlertEndpoints.start(() => t.clock.now());
});

afterAll(async () => {
  await endpoints.close();
  await t.close();
  await smtp.close();
});

async function ok(key: string, path: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await t.rest(key, 'POST', path, input);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

async function channel(ws: TestWorkspace, kind: string, path: string, minSeverity = 'info'): Promise<string> {
  const data = await ok(ws.key, '/api/v1/changes/channels', { kind, name: `${kind} channel`, url: endpoints.url(path), minSeverity, confirm: true });
  return String(data.channelId);
}

function record(ws: TestWorkspace, changes: NoticedChange[]): Promise<string[]> {
  return t.db.transaction().execute((trx) => recordChanges(trx, t.clock, ws.workspaceId, changes));
}

const lost = (n: number, title = `ChatGPT stopped citing acme.example for query ${n}`): NoticedChange => ({ kind: 'citation.lost', dedupeKey: `q${n}:chatgpt:${Math.random()}`, title, details: { n }, engine: 'chatgpt' });
const blocked: NoticedChange = { kind: 'crawler.blocked', dedupeKey: 'gptbot', title: 'GPTBot is now disallowed by robots.txt <!channel> & @everyone', details: {} };
const source: NoticedChange = { kind: 'source.new', dedupeKey: 'reddit.com', title: 'reddit.com entered the top cited sources', details: {} };

const sendJobs = (ws: TestWorkspace) => t.db.selectFrom('jobs').selectAll().where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'send_alerts').execute();
const sends = (ws: TestWorkspace) => t.db.selectFrom('alert_sends').selectAll().where('workspace_id', '=', ws.workspaceId).orderBy('created_at').execute();

describe('alerts as they happen', () => {
  it('sends one grouped message per channel in each vendor\u2019s documented format, signed events per change, and mail with its unsubscribe headers', async () => {
    const ws = await t.workspace({ name: 'Acme <Analytics>' });
    const owner = `owner-${ws.workspaceId}@acme.example`;
    await t.user(ws.workspaceId, owner, 'owner');
    const destination = await ok(ws.key, '/api/v1/destinations', { name: 'Events', endpointUrl: endpoints.url('/events') });
    endpoints.eventSecret = String(destination.signingSecret);
    const before = endpoints.received.length;
    await channel(ws, 'slack', '/slack');
    await channel(ws, 'discord', '/discord');
    await channel(ws, 'teams', '/teams');
    await ok(ws.key, '/api/v1/changes/channels', { kind: 'webhook', name: 'Events', destinationId: destination.destinationId, minSeverity: 'info', confirm: true });

    await record(ws, [blocked, lost(1)]);
    await record(ws, [source, lost(2, 'Perplexity stopped citing <b>acme</b> & co')]);
    // Two recordings, one job waiting: it reads every change not yet sent when it runs.
    expect((await sendJobs(ws)).filter((job) => job.state === 'queued')).toHaveLength(1);
    await t.jobs.drain();

    expect(endpoints.problems).toEqual([]);
    const mine = endpoints.received.slice(before);
    const slack = mine.filter((r) => r.path === '/slack');
    expect(slack).toHaveLength(1);
    const slackText = JSON.stringify(slack[0]!.body.blocks);
    expect(slackText).toContain('&lt;!channel&gt; &amp; @everyone');
    expect(slackText).not.toContain('<!channel>');
    // Grouped by kind, the most urgent first.
    const blocks = slack[0]!.body.blocks as Array<{ text: { text: string } }>;
    expect(blocks[1]!.text.text).toMatch(/^\*Crawler blocked\* \(critical\)/);
    expect(blocks[2]!.text.text).toMatch(/^\*Citation lost\* \(warning\)\n• .+\n• .+$/);

    const discord = mine.filter((r) => r.path === '/discord');
    expect(discord).toHaveLength(1);
    expect(discord[0]!.body.allowed_mentions).toEqual({ parse: [] });
    expect((discord[0]!.body.embeds as Array<{ color: number }>)[0]!.color).toBe(0xd92d20);

    const teams = mine.filter((r) => r.path === '/teams');
    expect(teams).toHaveLength(1);
    expect(JSON.stringify(teams[0]!.body)).toContain('Citation lost (warning)');

    // One signed event per change, named after its kind, verified by @sightline/site.
    const events = endpoints.events.filter((event) => mine.some((r) => r.path === '/events' && r.headers['webhook-id'] === event.id));
    expect(events.map((event) => event.event).sort()).toEqual(['citation.lost', 'citation.lost', 'crawler.blocked', 'source.new']);
    expect(events.every((event) => event.change.kind === event.event)).toBe(true);
    expect(mine.filter((r) => r.path === '/events').every((r) => r.headers['x-service-event'] === r.body.event)).toBe(true);

    // The owner's mail: warning and critical only, escaped HTML, the one-click unsubscribe headers.
    // The weekly digest's sweep runs in the same drain: only the alert is this test's.
    const mail = smtp.received.filter((m) => m.to.includes(owner) && !m.raw.includes('your week in AI answers'));
    expect(mail).toHaveLength(1);
    const parsed = await simpleParser(mail[0]!.raw);
    expect(mail[0]!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    // Unfolded: a long header continues on indented lines (RFC 5322).
    const unsubscribe = mail[0]!.raw.replace(/\r?\n[ \t]+/g, ' ').match(/^List-Unsubscribe: <([^>]+)>/m)?.[1];
    expect(unsubscribe).toMatch(new RegExp(`^${t.service.services.publicUrl}/unsubscribe/[^?]+\\?list=alerts$`));
    expect(parsed.text).toContain(`Stop these alerts: ${unsubscribe}`);
    expect(parsed.html).toContain('&lt;b&gt;acme&lt;/b&gt; &amp; co');
    expect(parsed.html).not.toContain('<b>acme</b>');
    expect(parsed.text).not.toContain('reddit.com');
    expect(parsed.subject).toBe('3 changes in Acme <Analytics>: Crawler blocked, Citation lost');

    const rows = await sends(ws);
    expect(rows.map((row) => row.state)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    // The same change found again records nothing, and so queues no job.
    expect(await record(ws, [blocked])).toEqual([]);
    expect((await sendJobs(ws)).filter((job) => job.state === 'queued')).toEqual([]);
  });

  it('keeps to the daily cap, says how many wait, and sends them in the next day\u2019s first message', async () => {
    const ws = await t.workspace();
    await ok(ws.key, '/api/v1/changes/alert-settings', { alertsPerDay: 1 });
    await channel(ws, 'slack', '/slack');
    const before = endpoints.at('/slack').length;
    await record(ws, Array.from({ length: 23 }, (_, i) => lost(i)));
    await t.jobs.drain();
    const first = endpoints.at('/slack').slice(before);
    expect(first).toHaveLength(1);
    const text = JSON.stringify(first[0]!.body.blocks);
    expect(text).toContain('20 changes in');
    expect(text).toContain('And 3 more, in the next message.');
    expect(text).toContain("That is today's last alert (at most 1 a day)");
    expect(text).toContain(`${t.service.services.publicUrl}/w/${ws.workspaceId}/changes`);

    await record(ws, [lost(100)]);
    await t.jobs.drain();
    expect(endpoints.at('/slack').slice(before)).toHaveLength(1);
    const waiting = (await sendJobs(ws)).filter((job) => job.state === 'queued');
    expect(waiting.map((job) => job.run_at)).toEqual([utcDay(t.clock.now()) + DAY_MS]);

    t.clock.set(utcDay(t.clock.now()) + DAY_MS);
    await t.jobs.drain();
    const next = endpoints.at('/slack').slice(before + 1);
    expect(next).toHaveLength(1);
    expect(JSON.stringify(next[0]!.body.blocks)).toContain('4 changes in');
    const rows = await sends(ws);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.flatMap((row) => (JSON.parse(row.change_ids) as { ids: string[] }).ids)).size).toBe(24);
  });

  it('resends the same batch after a 429, not before its Retry-After', async () => {
    const ws = await t.workspace();
    await channel(ws, 'discord', '/discord');
    endpoints.reply('/discord', { status: 429, headers: { 'retry-after': '120' } });
    const before = endpoints.at('/discord').length;
    await record(ws, [lost(1), lost(2)]);
    await t.jobs.drain();
    let rows = await sends(ws);
    expect(rows).toMatchObject([{ state: 'pending', attempts: 1, status_code: 429 }]);
    const [job] = await sendJobs(ws);
    expect(job!.state).toBe('queued');
    expect(job!.run_at).toBeGreaterThanOrEqual(t.clock.now() + 120_000);

    await record(ws, [lost(3)]);
    t.clock.advance(200_000);
    await t.jobs.drain();
    rows = await sends(ws);
    expect(rows[0]).toMatchObject({ state: 'sent', attempts: 2, status_code: 204 });
    const attempts = endpoints.at('/discord').slice(before);
    expect(attempts[1]!.raw.replace(/"timestamp":"[^"]+"/, '')).toBe(attempts[0]!.raw.replace(/"timestamp":"[^"]+"/, ''));
    // The change recorded meanwhile comes in a batch of its own.
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it('tests a channel now, records it, and reports a refusal', async () => {
    const ws = await t.workspace();
    const channelId = await channel(ws, 'teams', '/teams');
    const dry = await ok(ws.key, '/api/v1/changes/channels/test', { channelId });
    expect(dry.dryRun).toBe(true);
    expect(await ok(ws.key, '/api/v1/changes/channels/test', { channelId, confirm: true })).toEqual({ channelId, delivered: true, statusCode: 202, error: null });
    endpoints.reply('/teams', { status: 404 });
    t.clock.advance(1000);
    expect(await ok(ws.key, '/api/v1/changes/channels/test', { channelId, confirm: true })).toMatchObject({ channelId, delivered: false, statusCode: 404 });
    const listed = await t.rest(ws.key, 'GET', '/api/v1/changes/channels');
    const shown = (listed.body.data as { channels: Array<{ target: string; lastSend: { state: string } }> }).channels[0]!;
    expect(shown.target).toBe(`${endpoints.origin}/…eams`);
    expect(shown.lastSend.state).toBe('failed');
  });

  it('checks rules and channels: thresholds in range, kinds without one, https and the outbound guard, webhook destinations only', async () => {
    const ws = await t.workspace();
    const bad = async (path: string, input: Record<string, unknown>, status: number, message: RegExp) => {
      const answer = await t.rest(ws.key, 'POST', path, input);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(JSON.stringify(answer.body)).toMatch(message);
    };
    await bad('/api/v1/changes/rules', { kind: 'crawler.blocked', threshold: 3 }, 400, /threshold: crawler.blocked has no threshold/);
    await bad('/api/v1/changes/rules', { kind: 'plan.limit_near', threshold: 20 }, 400, /threshold: must be between 50 and 100/);
    await bad('/api/v1/changes/rules', { kind: 'crawler.blocked', engines: ['chatgpt'] }, 400, /engines: crawler.blocked is not about one engine/);
    expect(await ok(ws.key, '/api/v1/changes/rules', { kind: 'plan.limit_near', threshold: 80, enabled: false })).toMatchObject({ rule: { enabled: false, threshold: 80 } });
    const rules = await t.rest(ws.key, 'GET', '/api/v1/changes/rules');
    expect((rules.body.data as { rules: Array<{ kind: string; rule: { threshold: number } }> }).rules.find((rule) => rule.kind === 'plan.limit_near')!.rule.threshold).toBe(80);
    await bad('/api/v1/changes/channels', { kind: 'slack', name: 'x', url: 'http://hooks.slack.example/x', confirm: true }, 400, /url/);
    await bad('/api/v1/changes/channels', { kind: 'webhook', name: 'x', confirm: true }, 400, /destinationId: is required/);
  });
});
