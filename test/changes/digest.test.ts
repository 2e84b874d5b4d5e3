import { inflateSync } from 'node:zlib';
import { simpleParser, type ParsedMail } from 'mailparser';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_BACKGROUND } from '../../src/changes/background.js';
import type { Digest } from '../../src/changes/digest/digest.js';
import { renderDigestMail, TREND_CID } from '../../src/changes/digest/render.js';
import { queueDueDigests } from '../../src/changes/digest/send.js';
import { dueWeek, lastCompleteWeek, weekOfDate } from '../../src/changes/digest/week.js';
import type { ChangeKind } from '../../src/changes/kinds.js';
import { insertQuery } from '../../src/content/queries.js';
import { newId } from '../../src/ids.js';
import { JOB_HANDLERS } from '../../src/jobs/handlers.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { PNG_SIGNATURE } from '../../src/notifications/png.js';
import { unsubscribeToken } from '../../src/notifications/recipients.js';
import { BRAND_SUBJECT } from '../../src/visibility/checks/subjects.js';
import { FakeSmtp } from '../outreach/fakes/mailServers.js';
import { hasChromium, launchChromium } from '../support/chromium.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields, Visitor } from '../support/visitor.js';

const at = (iso: string) => Date.parse(iso);
// The digest's week: Monday 2026-11-23 to Sunday 2026-11-29 (UTC); the week before starts 2026-11-16.
const WEEK = '2026-11-23';

let smtp: FakeSmtp;
let t: TestService;

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  t = await TestService.start({
    env: { SMTP_URL: `smtp://ada%40acme.example:smtp-secret@127.0.0.1:${smtp.port}`, MAIL_FROM: 'Sightline <digest@sightline.example>', MAIL_ALLOW_INSECURE: '1' },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function change(workspaceId: string, kind: ChangeKind, severity: 'critical' | 'warning' | 'info', title: string, detectedAt: number, queryId: string | null = null) {
  await t.db
    .insertInto('changes')
    .values({ id: newId('chg'), workspace_id: workspaceId, kind, severity, dedupe_key: newId('key'), title, details: '{}', engine: queryId === null ? null : 'chatgpt', query_id: queryId, run_id: null, detected_at: detectedAt })
    .execute();
}

async function daily(workspaceId: string, day: string, counts: { answers: number; cited: number; mentioned: number; withCitations: number }) {
  await t.db
    .insertInto('visibility_daily')
    .values({
      workspace_id: workspaceId,
      day: at(`${day}T00:00:00Z`),
      engine: 'chatgpt',
      subject_id: BRAND_SUBJECT,
      answers: counts.answers,
      answers_with_citations: counts.withCitations,
      cited: counts.cited,
      mentioned: counts.mentioned,
      failed: 0,
      not_shown: 0,
      positive: 0,
      neutral: 0,
      negative: 0,
      sentiment_score_sum: 0,
    })
    .execute();
}

async function job(workspaceId: string, kind: 'write_article' | 'deliver', state: 'done' | 'failed', createdAt: number) {
  await t.db
    .insertInto('jobs')
    .values({ id: newId('job'), workspace_id: workspaceId, kind, subject_id: null, payload: '{}', state, attempts: 1, max_attempts: 3, run_at: createdAt, lease_until: null, lease_token: null, progress: null, result: null, error: null, prompt_tokens: 0, completion_tokens: 0, created_at: createdAt, started_at: createdAt, finished_at: createdAt + 1000 })
    .execute();
}

/** The fixed week: 15 changes (1 critical, 1 warning, 13 info), two weeks of checks, three jobs, and noise outside the week. */
async function seededWorkspace(): Promise<TestWorkspace> {
  const ws = await t.workspace({ name: 'Acme <Analytics>' });
  const crm = await insertQuery(t.db, t.clock, ws.workspaceId, { text: '<script>alert(1)</script> best crm', source: 'user' });
  const lost = await insertQuery(t.db, t.clock, ws.workspaceId, { text: 'crm for agencies', source: 'user' });
  await change(ws.workspaceId, 'crawler.blocked', 'critical', 'GPTBot is blocked by robots.txt', at('2026-11-24T10:00:00Z'));
  await change(ws.workspaceId, 'citation.lost', 'warning', 'ChatGPT stopped citing the brand', at('2026-11-25T10:00:00Z'), lost.id);
  await change(ws.workspaceId, 'citation.gained', 'info', 'ChatGPT began citing the brand', at('2026-11-26T10:00:00Z'), crm.id);
  await change(ws.workspaceId, 'rank.entered_top', 'info', 'Entered the Google top 10 at 7', at('2026-11-27T10:00:00Z'), crm.id);
  for (let i = 0; i < 11; i++) await change(ws.workspaceId, 'source.new', 'info', `new-source-${i}.example is a top cited source`, at('2026-11-28T10:00:00Z') + i);
  // Outside the week: the Monday after, and the Sunday before.
  await change(ws.workspaceId, 'crawler.blocked', 'critical', 'ClaudeBot is blocked', at('2026-11-30T00:00:00Z'));
  await change(ws.workspaceId, 'citation.lost', 'warning', 'Perplexity stopped citing the brand', at('2026-11-22T23:59:59Z'), lost.id);
  await daily(ws.workspaceId, '2026-11-17', { answers: 50, cited: 5, mentioned: 5, withCitations: 40 });
  await daily(ws.workspaceId, '2026-11-24', { answers: 50, cited: 20, mentioned: 10, withCitations: 40 });
  await job(ws.workspaceId, 'write_article', 'done', at('2026-11-23T08:00:00Z'));
  await job(ws.workspaceId, 'write_article', 'done', at('2026-11-26T08:00:00Z'));
  await job(ws.workspaceId, 'deliver', 'failed', at('2026-11-29T23:00:00Z'));
  await job(ws.workspaceId, 'deliver', 'done', at('2026-11-30T01:00:00Z'));
  return ws;
}

describe('the digest week and when it is due', () => {
  it('runs Monday to Sunday UTC; the default is the last week that has ended', () => {
    expect(weekOfDate('2026-11-29')).toMatchObject({ key: '2026-11-23' });
    expect(weekOfDate('2026-11-23')).toMatchObject({ key: '2026-11-23' });
    expect(weekOfDate('2026-11-30')).toMatchObject({ key: '2026-11-30' });
    expect(lastCompleteWeek(at('2026-11-30T00:00:00Z')).key).toBe('2026-11-23');
    expect(lastCompleteWeek(at('2026-11-29T23:59:59Z')).key).toBe('2026-11-16');
  });

  it('is due at the person\u2019s day and hour in their own time zone', () => {
    const monday8 = { digestDay: 1, digestHour: 8 };
    // Europe/Paris is UTC+1 in November: Monday 08:00 there is 07:00 UTC.
    expect(dueWeek(at('2026-11-30T06:59:00Z'), { ...monday8, timeZone: 'Europe/Paris' })).toBeNull();
    expect(dueWeek(at('2026-11-30T07:00:00Z'), { ...monday8, timeZone: 'Europe/Paris' })?.key).toBe('2026-11-23');
    // New York is UTC-5: Monday 08:00 there is 13:00 UTC.
    expect(dueWeek(at('2026-11-30T12:59:00Z'), { ...monday8, timeZone: 'America/New_York' })).toBeNull();
    expect(dueWeek(at('2026-11-30T13:00:00Z'), { ...monday8, timeZone: 'America/New_York' })?.key).toBe('2026-11-23');
    // India is UTC+5:30: the half hour counts.
    expect(dueWeek(at('2026-12-01T04:29:00Z'), { digestDay: 2, digestHour: 10, timeZone: 'Asia/Kolkata' })).toBeNull();
    expect(dueWeek(at('2026-12-01T04:30:00Z'), { digestDay: 2, digestHour: 10, timeZone: 'Asia/Kolkata' })?.key).toBe('2026-11-23');
    // Auckland (UTC+13) reaches Monday 08:00 before the UTC week ends: that week waits for the next Monday, and the
    // week before was due at the previous one, so no day has two digests.
    expect(dueWeek(at('2026-11-29T19:00:00Z'), { ...monday8, timeZone: 'Pacific/Auckland' })?.key).toBe('2026-11-16');
    expect(dueWeek(at('2026-11-30T02:00:00Z'), { ...monday8, timeZone: 'Pacific/Auckland' })).toBeNull();
    expect(dueWeek(at('2026-12-06T19:00:00Z'), { ...monday8, timeZone: 'Pacific/Auckland' })?.key).toBe('2026-11-23');
  });
});

describe('get_digest', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    t.clock.set(at('2026-12-01T09:00:00Z'));
    ws = await seededWorkspace();
  });

  it('computes the week\u2019s figures from the stored data (checked by hand)', async () => {
    t.writer.answer('digest_summary', () => ({ summary: 'A quiet week.' }));
    const answer = await t.rest(ws.key, 'GET', '/api/v1/changes/digest', { week: '2026-11-26' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const digest = answer.body.data as Digest;
    expect(digest.week).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(digest.complete).toBe(true);
    // 15 changes in the week; the 10 shown start with the critical and the warning.
    expect(digest.changes.total).toBe(15);
    expect(digest.changes.bySeverity).toEqual({ critical: 1, warning: 1, info: 13 });
    expect(digest.changes.shown).toHaveLength(10);
    expect(digest.changes.more).toBe(5);
    expect(digest.changes.shown.slice(0, 2).map((c: { title: string }) => c.title)).toEqual(['GPTBot is blocked by robots.txt', 'ChatGPT stopped citing the brand']);
    // Mention rate 30/50 = 0.6, Wilson 95 %: centre (0.6 + 1.96²/100) / (1 + 1.96²/50) = 0.5929, margin 0.1311.
    expect(digest.visibility.mentionRate).toEqual({ rate: 0.6, interval: { low: 0.4618, high: 0.7239 }, count: 30, of: 50 });
    // Score over the measured components (mention 0.6 at 0.4, citation 20/40 = 0.5 at 0.2): 100 x 0.34 / 0.6 = 56.7.
    expect(digest.visibility.score).toBe(56.7);
    // The week before: mention 10/50 = 0.2, citation 5/40 = 0.125: 100 x (0.08 + 0.025) / 0.6 = 17.5.
    expect(digest.visibility.previousScore).toBe(17.5);
    expect(digest.visibility.mentionRateChange).toBe('up');
    expect(digest.visibility.trend.map((p: { week: string; score: number | null }) => [p.week, p.score])).toEqual([
      ['2026-10-05', null],
      ['2026-10-12', null],
      ['2026-10-19', null],
      ['2026-10-26', null],
      ['2026-11-02', null],
      ['2026-11-09', null],
      ['2026-11-16', 17.5],
      ['2026-11-23', 56.7],
    ]);
    expect(digest.wins.changes.map((c: { kind: string }) => c.kind).sort()).toEqual(['citation.gained', 'rank.entered_top']);
    expect(digest.losses.changes.map((c: { title: string }) => c.title)).toEqual(['ChatGPT stopped citing the brand']);
    expect(digest.wins.reports).toBeNull();
    // Three jobs began in the week (the Sunday-night delivery failed); the Monday after is not counted.
    expect(digest.agents.runs).toBe(3);
    expect(digest.agents.failed).toBe(1);
    expect(digest.agents.lanes.find((l: { lane: string }) => l.lane === 'writing')).toMatchObject({ runs: 2, succeeded: 2 });
    expect(digest.agents.lanes.find((l: { lane: string }) => l.lane === 'publishing')).toMatchObject({ runs: 1, failed: 1 });
    // The writer phrased it without a number of its own.
    expect(digest.summary).toEqual({ text: 'A quiet week.', by: 'writer', model: 'fake-writer-1' });
  });

  it('asks the writer once for the same figures: the next reader gets the kept phrasing', async () => {
    const summaryRequests = () => t.writer.requests.filter((request) => request.response_format?.json_schema?.name === 'digest_summary').length;
    const before = summaryRequests();
    t.writer.answer('digest_summary', () => ({ summary: 'Another phrasing.' }));
    const again = (await t.rest(ws.key, 'GET', '/api/v1/changes/digest', { week: WEEK })).body.data as Digest;
    expect(again.summary).toEqual({ text: 'A quiet week.', by: 'writer', model: 'fake-writer-1' });
    expect(summaryRequests()).toBe(before);
    expect(await t.db.selectFrom('digest_summaries').select('text').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([{ text: 'A quiet week.' }]);
  });

  it('keeps the plain template when the writer invents a figure or fails, and keeps no phrasing then', async () => {
    // The phrasing kept by the tests above would be read instead of asking the writer.
    await t.db.deleteFrom('digest_summaries').where('workspace_id', '=', ws.workspaceId).execute();
    t.writer.answer('digest_summary', () => ({ summary: 'Your score rose by 12 points to 99.' }));
    const invented = (await t.rest(ws.key, 'GET', '/api/v1/changes/digest', { week: WEEK })).body.data as Digest;
    expect(invented.summary.by).toBe('template');
    expect(invented.summary.text).toContain('the visibility score was 56.7 (range');
    expect(invented.summary.text).toContain('30 of 50 answers, 60 % (95 % interval 46.2 % to 72.4 %), a rise beyond the noise');
    t.writer.answer('digest_summary', () => ({ wrong: true }));
    const failed = (await t.rest(ws.key, 'GET', '/api/v1/changes/digest', { week: WEEK })).body.data as Digest;
    expect(failed.summary.by).toBe('template');
    expect(await t.db.selectFrom('digest_summaries').select('text').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
    t.writer.reset();
  });

  it('defaults to the last week that has ended, and refuses a week not begun', async () => {
    const latest = (await t.rest(ws.key, 'GET', '/api/v1/changes/digest')).body.data as Digest;
    expect(latest.week).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    const future = await t.rest(ws.key, 'GET', '/api/v1/changes/digest', { week: '2026-12-08' });
    expect(future.status).toBe(400);
    expect(String(future.body.error)).toMatch(/^week: /);
  });
});

function partOf(mail: ParsedMail, cid: string) {
  return mail.attachments.find((attachment) => attachment.cid === cid || attachment.contentId === `<${cid}>`);
}

/** Checks a PNG's signature, header, and that its image data inflates to the size the header gives. */
function expectValidPng(png: Buffer): void {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idatLength = png.readUInt32BE(33);
  expect(png.subarray(37, 41).toString('latin1')).toBe('IDAT');
  const pixels = inflateSync(png.subarray(41, 41 + idatLength));
  expect(pixels.length).toBe((width * 3 + 1) * height);
}

describe('sending the digest', () => {
  it('sends last week\u2019s digest at each person\u2019s hour in their zone, once, with the unsubscribe headers and the chart', async () => {
    t.writer.reset();
    const ws = await seededWorkspace();
    const ownerId = await t.user(ws.workspaceId, `owner-${ws.workspaceId}@acme.example`, 'owner');
    const memberId = await t.user(ws.workspaceId, `member-${ws.workspaceId}@acme.example`, 'member');
    await t.user(ws.workspaceId, `quiet-${ws.workspaceId}@acme.example`, 'member');
    // The member opts in, from New York; the owner keeps the defaults in the workspace's zone (UTC): Monday 08:00.
    await unsubscribeToken(t.db, t.clock, ws.workspaceId, memberId);
    await t.db.updateTable('notification_settings').set({ digest: 1, time_zone: 'America/New_York' }).where('user_id', '=', memberId).execute();
    const mine = (to: string) => smtp.received.filter((mail) => mail.to.includes(to));
    const owner = `owner-${ws.workspaceId}@acme.example`;
    const member = `member-${ws.workspaceId}@acme.example`;

    t.clock.set(at('2026-11-30T07:59:00Z'));
    await t.jobs.drain();
    await queueDueDigests(t.db, t.clock, t.baseUrl);
    await t.jobs.drain();
    expect(mine(owner)).toHaveLength(0);

    t.clock.set(at('2026-11-30T08:00:00Z'));
    await queueDueDigests(t.db, t.clock, t.baseUrl);
    await t.jobs.drain();
    expect(mine(owner)).toHaveLength(1);
    expect(mine(member)).toHaveLength(0);

    t.clock.set(at('2026-11-30T13:05:00Z'));
    await queueDueDigests(t.db, t.clock, t.baseUrl);
    await queueDueDigests(t.db, t.clock, t.baseUrl);
    await t.jobs.drain();
    expect(mine(owner)).toHaveLength(1);
    expect(mine(member)).toHaveLength(1);
    expect(smtp.received.filter((mail) => mail.to.includes(`quiet-${ws.workspaceId}@acme.example`))).toHaveLength(0);

    const rows = await t.db.selectFrom('digest_sends').selectAll().where('workspace_id', '=', ws.workspaceId).orderBy('user_id').execute();
    expect(rows.map((row) => [row.user_id, row.week, row.state, row.attempts])).toEqual(
      [
        [ownerId, WEEK, 'sent', 1],
        [memberId, WEEK, 'sent', 1],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );

    const mail = await simpleParser(mine(owner)[0]!.raw, { keepCidLinks: true });
    expect(mail.subject).toBe('Acme <Analytics>: your week in AI answers, 2026-11-23 to 2026-11-29');
    const token = (await t.db.selectFrom('notification_settings').select('unsubscribe_token').where('user_id', '=', ownerId).executeTakeFirstOrThrow()).unsubscribe_token;
    const header = (name: string) => mail.headerLines.find((line) => line.key === name)?.line.replace(/\r?\n[ \t]+/g, ' ');
    expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${t.baseUrl}/unsubscribe/${token}?list=digest>`);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(mail.messageId).toBe(rows.find((row) => row.user_id === ownerId)!.message_id);
    const html = String(mail.html);
    expect(html).toContain('src="cid:score-trend@sightline"');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; best crm');
    expect(html).not.toContain('<script>');
    expect(html).toContain('Acme &lt;Analytics&gt;');
    expect(html).toContain(`href="${t.baseUrl}/w/${ws.workspaceId}"`);
    expect(mail.text).toContain(`Unsubscribe from the weekly digest: ${t.baseUrl}/unsubscribe/${token}?list=digest`);
    expect(mail.text).toContain('Score 56.7 (range');
    const chart = partOf(mail, 'score-trend@sightline');
    expect(chart?.contentType).toBe('image/png');
    expectValidPng(chart!.content);
  });

  it('retries a server that cannot take the message now, and records a refusal for good as failed', async () => {
    const ws = await t.workspace();
    const ownerId = await t.user(ws.workspaceId, `busy-${ws.workspaceId}@acme.example`, 'owner');
    const refusedId = await t.user(ws.workspaceId, `unknown@${ws.workspaceId.replace('_', '-')}.example`, 'owner');
    t.clock.set(at('2026-12-07T08:00:00Z'));
    smtp.temporaryFailure = '451 4.3.0 try again later';
    await queueDueDigests(t.db, t.clock, t.baseUrl);
    await t.jobs.drain();
    const row = (userId: string) => t.db.selectFrom('digest_sends').selectAll().where('workspace_id', '=', ws.workspaceId).where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(await row(ownerId)).toMatchObject({ week: '2026-11-30', state: 'pending', attempts: 1 });
    expect((await row(ownerId)).error).toContain('try again later');
    smtp.temporaryFailure = undefined;
    t.clock.advance(10 * 60_000);
    await t.jobs.drain();
    expect(await row(ownerId)).toMatchObject({ state: 'sent', attempts: 2, error: null });
    expect(await row(refusedId), JSON.stringify(await row(refusedId))).toMatchObject({ state: 'failed', attempts: 2 });
    expect((await row(refusedId)).error).toContain('user unknown');
    expect(smtp.received.filter((mail) => mail.to.includes(`busy-${ws.workspaceId}@acme.example`))).toHaveLength(1);
  });

  it('two instances running the sweep and their workers at once send each digest once', async () => {
    const ws = await t.workspace();
    const emails = [1, 2, 3].map((n) => `twice-${n}-${ws.workspaceId}@acme.example`);
    for (const email of emails) await t.user(ws.workspaceId, email, 'owner');
    t.clock.set(at('2026-12-14T08:00:00Z'));
    const logger = pino({ level: 'silent' });
    const config = { publicUrl: t.baseUrl } as Parameters<NonNullable<typeof CHANGES_BACKGROUND.sweeps>>[0]['config'];
    const instance = () =>
      new JobWorker({ db: t.db, clock: t.clock, services: t.service.services, logger, handlers: JOB_HANDLERS, sweeps: CHANGES_BACKGROUND.sweeps!({ db: t.db, clock: t.clock, services: t.service.services, logger, config }) });
    const [a, b] = [instance(), instance()];
    // Both sweeps at once, past their shared claim too: the digest_sends key alone must keep each digest single.
    await Promise.all([queueDueDigests(t.db, t.clock, t.baseUrl), queueDueDigests(t.db, t.clock, t.baseUrl), a.drain(), b.drain()]);
    await Promise.all([a.drain(), b.drain()]);
    for (const email of emails) expect(smtp.received.filter((mail) => mail.to.includes(email)), email).toHaveLength(1);
    const jobs = await t.db.selectFrom('jobs').select('id').where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'digest_send').execute();
    expect(jobs).toHaveLength(3);
  });
});

describe('unsubscribing', () => {
  async function tokenOf(): Promise<{ ws: TestWorkspace; userId: string; token: string }> {
    const ws = await t.workspace();
    const userId = await t.user(ws.workspaceId, `leaving-${ws.workspaceId}@acme.example`, 'owner');
    return { ws, userId, token: await unsubscribeToken(t.db, t.clock, ws.workspaceId, userId) };
  }
  const setting = async (userId: string) => t.db.selectFrom('notification_settings').select(['digest', 'alert_email']).where('user_id', '=', userId).executeTakeFirstOrThrow();

  it('turns the digest off by the one-click POST a mail client sends, without cookies or a CSRF token', async () => {
    const { userId, token } = await tokenOf();
    const page = await fetch(`${t.baseUrl}/unsubscribe/${token}?list=digest`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await setting(userId)).toEqual({ digest: null, alert_email: null });
    const posted = await fetch(`${t.baseUrl}/unsubscribe/${token}?list=digest`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(posted.status).toBe(200);
    expect(await setting(userId)).toEqual({ digest: 0, alert_email: null });
    const multipart = new FormData();
    multipart.set('List-Unsubscribe', 'One-Click');
    expect((await fetch(`${t.baseUrl}/unsubscribe/${token}?list=alerts`, { method: 'POST', body: multipart })).status).toBe(200);
    expect(await setting(userId)).toEqual({ digest: 0, alert_email: 0 });
  });

  it('turns it off from the page\u2019s button, and an unknown token is a 404 that says nothing more', async () => {
    const { userId, token } = await tokenOf();
    const visitor = new Visitor(t.baseUrl);
    const page = await visitor.request(`/unsubscribe/${token}?list=digest`);
    expect(page.status).toBe(200);
    const text = await page.text();
    const action = /<form method="post" action="([^"]+)"/.exec(text)![1]!.replace(/&amp;/g, '&');
    const done = await visitor.request(action, { method: 'POST', form: hiddenFields(text) });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('id="unsubscribed"');
    expect((await setting(userId)).digest).toBe(0);
    for (const bad of ['x'.repeat(32), 'nope']) {
      const missing = await fetch(`${t.baseUrl}/unsubscribe/${bad}?list=digest`, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('This unsubscribe link is not valid.');
    }
  });
});

describe('the Email settings page', () => {
  it('changes only the signed-in person\u2019s own settings, with the session\u2019s CSRF token', async () => {
    const { workspaceId, visitor } = await t.signedInOwner();
    const otherId = await t.user(workspaceId, `other-${workspaceId}@acme.example`, 'owner');
    const path = `/w/${workspaceId}/email`;
    const page = await visitor.request(path);
    expect(page.status).toBe(200);
    const fields = hiddenFields(await page.text());
    const saved = await visitor.request(path, { method: 'POST', form: { ...fields, digest: 'off', alerts: 'on', digestDay: '2', digestHour: '17', timeZone: 'Europe/Paris' } });
    expect(saved.status).toBe(303);
    const rows = await t.db.selectFrom('notification_settings').selectAll().where('workspace_id', '=', workspaceId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ digest: 0, alert_email: 1, digest_day: 2, digest_hour: 17, time_zone: 'Europe/Paris' });
    expect(rows[0]!.user_id).not.toBe(otherId);
    const forged = await visitor.request(path, { method: 'POST', form: { ...fields, _csrf: 'forged', digest: 'on', alerts: 'on', digestDay: '1', digestHour: '8', timeZone: '' } });
    expect(forged.status).toBe(403);
    const bad = await visitor.request(path, { method: 'POST', form: { ...fields, digest: 'on', alerts: 'on', digestDay: '1', digestHour: '8', timeZone: 'Mars/Olympus' } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('timeZone: must be a time zone');
  });
});

describe.skipIf(!hasChromium)('the digest mail in Chromium', () => {
  it('reads at desktop and phone width with nothing wider than the screen', async () => {
    const ws = await seededWorkspace();
    const long = `${'averyveryverylongunbrokenqueryword'.repeat(6)}.example`;
    const query = await insertQuery(t.db, t.clock, ws.workspaceId, { text: long, source: 'user' });
    await change(ws.workspaceId, 'citation.lost', 'warning', `Lost the citation on ${long}`, at('2026-11-28T12:00:00Z'), query.id);
    t.clock.set(at('2026-12-01T09:00:00Z'));
    const digest = (await t.rest(ws.key, 'GET', '/api/v1/changes/digest', { week: WEEK })).body.data as unknown as Digest;
    const links = { workspaceName: 'Acme', websiteUrl: 'https://acme.example', dashboardUrl: `${t.baseUrl}/w/x`, changesUrl: `${t.baseUrl}/w/x/changes`, settingsUrl: `${t.baseUrl}/w/x/email`, unsubscribeUrl: `${t.baseUrl}/unsubscribe/x?list=digest` };
    const rendered = renderDigestMail(digest, links);
    const html = rendered.html.replace(`cid:${TREND_CID}`, `data:image/png;base64,${rendered.chart.toString('base64')}`);
    const browser = await launchChromium();
    try {
      for (const width of [600, 375]) {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        await page.setContent(html, { waitUntil: 'load' });
        // A string, as the other browser tests do: the test files compile without the DOM's types.
        const sizes = await page.evaluate<{ scroll: number; client: number; image: number; shown: number }>(
          "({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, image: document.querySelector('img').naturalWidth, shown: document.querySelector('img').getBoundingClientRect().width })",
        );
        expect(sizes.scroll, `width ${width}`).toBeLessThanOrEqual(sizes.client);
        // The chart decoded (a broken image has no natural width) and fits the column.
        expect(sizes.image).toBe(1120);
        expect(sizes.shown).toBeLessThanOrEqual(width);
        expect(await page.getByRole('heading', { name: 'What to do next' }).isVisible()).toBe(true);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });
});
