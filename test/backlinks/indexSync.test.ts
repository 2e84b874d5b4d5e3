import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordPlacedLink } from '../../src/backlinks/knownLinks.js';
import { queueBacklinkSync, queueDueBacklinkSyncs, REFERRING_DOMAINS_PER_DOMAIN } from '../../src/backlinks/index/sync.js';
import { newId } from '../../src/ids.js';
import { TestService } from '../support/harness.js';
import { FakeDataForSeoBacklinks, type FakeBacklink } from '../integrations/fakes/dataforseo/backlinks.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let fake: FakeDataForSeoBacklinks;
let t: TestService;

beforeAll(async () => {
  fake = await FakeDataForSeoBacklinks.start();
  t = await TestService.start({ writer: false, env: { ...fake.env(), BACKLINKS_MAX_ROWS: '2200' } });
  // The first look at the sweeps sets their schedule: done here, before any workspace exists, so that tests queue
  // their own syncs and only the sweep test moves the clock into the next one.
  await t.jobs.drain();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

async function sync(workspaceId: string) {
  const { jobId } = await queueBacklinkSync(t.db, t.clock, workspaceId);
  await t.jobs.drain();
  const job = await t.db.selectFrom('jobs').select(['state', 'result', 'error', 'attempts', 'run_at']).where('id', '=', jobId).executeTakeFirstOrThrow();
  return { ...job, result: job.result === null ? null : (JSON.parse(job.result) as Record<string, unknown>) };
}

const rowsOf = (workspaceId: string) =>
  t.db.selectFrom('backlinks').selectAll().where('workspace_id', '=', workspaceId).orderBy('linking_url').orderBy('target_url').execute();

async function addCompetitor(workspaceId: string, domain: string): Promise<void> {
  await t.db
    .insertInto('competitors')
    .values({ id: newId('cmp'), workspace_id: workspaceId, name: domain, website_url: `https://${domain}`, domain, aliases: '[]', positioning: null, created_at: t.clock.now(), removed_at: null })
    .execute();
}

const site = (n: number) => `https://site${n}.example`;

describe('backlink_sync against a DataForSEO-compatible index', () => {
  it('writes index rows with the named authority metric, lost links, a measure and the referring domains of the site and its competitors', async () => {
    const { workspaceId } = await t.workspace({ site: 'https://www.acme.example/' });
    await addCompetitor(workspaceId, 'rival.example');
    fake.setBacklinks('acme.example', [
      { urlFrom: 'https://news.example/story', urlTo: 'https://acme.example/pricing', anchor: 'Acme pricing', domainFromRank: 512, firstSeen: '2025-02-03 04:05:06 +00:00' },
      { urlFrom: 'https://forum.example/t/1', urlTo: 'https://acme.example/', anchor: 'acme', dofollow: false, domainFromRank: 120 },
      { urlFrom: 'https://gone.example/old', urlTo: 'https://acme.example/', isLost: true, lastSeen: '2026-10-20 12:00:00 +00:00', domainFromRank: 300 },
    ]);
    fake.setSummary('acme.example', { backlinks: 1500, referringDomains: 210, referringMainDomains: 190, nofollow: 300, broken: 12 });
    fake.setReferringDomains('acme.example', [{ domain: 'news.example', backlinks: 3, rank: 400 }]);
    fake.setReferringDomains(
      'rival.example',
      Array.from({ length: REFERRING_DOMAINS_PER_DOMAIN + 5 }, (_, i) => ({ domain: `ref${i}.example`, backlinks: 1 + i, rank: 1000 - i })),
    );

    const job = await sync(workspaceId);
    expect(job.error).toBeNull();
    expect(job.state).toBe('done');
    expect(job.result).toEqual({
      target: 'acme.example',
      backlinks: 3,
      lost: 1,
      indexedBacklinks: 1500,
      referringDomains: 210,
      referringDomainLists: { 'acme.example': 1, 'rival.example': REFERRING_DOMAINS_PER_DOMAIN },
    });

    const rows = await rowsOf(workspaceId);
    expect(rows.map((r) => [r.linking_url, r.status, r.domain_authority, r.authority_metric, r.dofollow, r.source, r.next_check_at])).toEqual([
      ['https://forum.example/t/1', 'discovered', 120, 'dataforseo_domain_rank', 0, 'index', null],
      ['https://gone.example/old', 'lost', 300, 'dataforseo_domain_rank', 1, 'index', null],
      ['https://news.example/story', 'discovered', 512, 'dataforseo_domain_rank', 1, 'index', null],
    ]);
    const news = rows.find((r) => r.linking_url === 'https://news.example/story')!;
    expect(news).toMatchObject({ linking_domain: 'news.example', target_url: 'https://acme.example/pricing', anchor_text: 'Acme pricing', discovered_at: Date.parse('2025-02-03T04:05:06Z'), lost_at: null });
    expect(rows.find((r) => r.status === 'lost')!.lost_at).toBe(Date.parse('2026-10-20T12:00:00Z'));

    const measures = await t.db.selectFrom('backlink_measures').selectAll().where('workspace_id', '=', workspaceId).execute();
    expect(measures).toEqual([
      expect.objectContaining({ provider: 'dataforseo', indexed_backlinks: 1500, referring_domains: 210, measured_at: t.clock.now() }),
    ]);
    expect(JSON.parse(measures[0]!.detail!)).toEqual({ target: 'acme.example', referringMainDomains: 190, nofollowBacklinks: 300, brokenBacklinks: 12 });

    const referring = await t.db.selectFrom('referring_domains').selectAll().where('workspace_id', '=', workspaceId).execute();
    expect(referring.filter((r) => r.target_domain === 'acme.example')).toEqual([
      { workspace_id: workspaceId, target_domain: 'acme.example', referring_domain: 'news.example', provider: 'dataforseo', links: 3, rank: 400, measured_at: t.clock.now() },
    ]);
    const rival = referring.filter((r) => r.target_domain === 'rival.example');
    expect(rival).toHaveLength(REFERRING_DOMAINS_PER_DOMAIN);
    expect(rival.map((r) => r.rank).sort((a, b) => b! - a!)[0]).toBe(1000);

    // A competitor no longer tracked: its list goes with the next sync, the site's own stays.
    await t.db.updateTable('competitors').set({ removed_at: t.clock.now() }).where('workspace_id', '=', workspaceId).execute();
    t.clock.advance(HOUR / 4);
    expect((await sync(workspaceId)).state).toBe('done');
    const left = await t.db.selectFrom('referring_domains').select(['target_domain', 'referring_domain']).where('workspace_id', '=', workspaceId).execute();
    expect(left).toEqual([{ target_domain: 'acme.example', referring_domain: 'news.example' }]);
  });

  it('re-syncs idempotently; a lost link found again is discovered, a live one that went is lost', async () => {
    const { workspaceId } = await t.workspace({ site: 'https://beta.example' });
    const first: FakeBacklink[] = [
      { urlFrom: 'https://a.example/1', urlTo: 'https://beta.example/', domainFromRank: 10 },
      { urlFrom: 'https://b.example/1', urlTo: 'https://beta.example/', isLost: true, lastSeen: '2026-09-01 00:00:00 +00:00', domainFromRank: 20 },
    ];
    fake.setBacklinks('beta.example', first);
    expect((await sync(workspaceId)).state).toBe('done');
    const before = await rowsOf(workspaceId);

    t.clock.advance(DAY);
    fake.setBacklinks('beta.example', first);
    expect((await sync(workspaceId)).state).toBe('done');
    expect(await rowsOf(workspaceId)).toEqual(before);
    expect(await t.db.selectFrom('backlink_measures').select('id').where('workspace_id', '=', workspaceId).execute()).toHaveLength(2);

    t.clock.advance(DAY);
    fake.setBacklinks('beta.example', [
      { urlFrom: 'https://a.example/1', urlTo: 'https://beta.example/', isLost: true, lastSeen: '2026-11-20 00:00:00 +00:00', domainFromRank: 11 },
      { urlFrom: 'https://b.example/1', urlTo: 'https://beta.example/', domainFromRank: 20 },
    ]);
    expect((await sync(workspaceId)).state).toBe('done');
    const after = await rowsOf(workspaceId);
    expect(after.map((r) => [r.id, r.status, r.lost_at, r.status_changed_at, r.domain_authority])).toEqual([
      [before[0]!.id, 'lost', Date.parse('2026-11-20T00:00:00Z'), t.clock.now(), 11],
      [before[1]!.id, 'discovered', null, t.clock.now(), 20],
    ]);
  });

  it('keeps the source and status of a link the service placed, refreshing only its authority', async () => {
    const { workspaceId } = await t.workspace({ site: 'https://gamma.example' });
    await recordPlacedLink(t.db, t.clock, { workspaceId, linkingUrl: 'https://partner.example/post', targetUrl: 'https://gamma.example/', anchorText: 'Gamma', dofollow: true, source: 'managed' });
    const placed = (await rowsOf(workspaceId))[0]!;
    fake.setBacklinks('gamma.example', [{ urlFrom: 'https://partner.example/post', urlTo: 'https://gamma.example/', anchor: 'other words', dofollow: false, isLost: true, domainFromRank: 77 }]);
    t.clock.advance(HOUR / 2);
    expect((await sync(workspaceId)).state).toBe('done');
    const [row] = await rowsOf(workspaceId);
    // The service's verification sweep may look at the placed link meanwhile; that is its business, not the index's.
    const { check_error: _error, check_failures: _failures, next_check_at: _next, ...synced } = row!;
    const { check_error: _placedError, check_failures: _placedFailures, next_check_at: _placedNext, ...recorded } = placed;
    expect(synced).toEqual({ ...recorded, domain_authority: 77, authority_metric: 'dataforseo_domain_rank' });
  });

  it('reads deep pages with search_after_token up to BACKLINKS_MAX_ROWS', async () => {
    const { workspaceId } = await t.workspace({ site: 'https://delta.example' });
    fake.setBacklinks(
      'delta.example',
      Array.from({ length: 2500 }, (_, i) => ({ urlFrom: `${site(i)}/p`, urlTo: 'https://delta.example/', domainFromRank: 5000 - i })),
    );
    const job = await sync(workspaceId);
    expect(job.result).toMatchObject({ backlinks: 2200 });
    const requests = fake.requestsTo('backlinks');
    expect(requests.map((r) => [r.task.limit, r.task.search_after_token === undefined, r.task.offset])).toEqual([
      [1000, true, undefined],
      [1000, false, undefined],
      // Only the 200 rows still wanted are asked for (and billed): by offset, since a token needs the same limit.
      [200, true, 2000],
    ]);
    const rows = await rowsOf(workspaceId);
    expect(rows).toHaveLength(2200);
    // The best-ranked linking domains are the ones kept.
    expect(Math.min(...rows.map((r) => r.domain_authority!))).toBe(5000 - 2199);
  });

  it('never touches another workspace, even one linked from the same pages', async () => {
    const one = await t.workspace({ site: 'https://shared.example' });
    const other = await t.workspace({ site: 'https://shared.example' });
    fake.setBacklinks('shared.example', [{ urlFrom: 'https://x.example/', urlTo: 'https://shared.example/', domainFromRank: 1 }]);
    fake.setReferringDomains('shared.example', [{ domain: 'x.example', backlinks: 1, rank: 1 }]);
    expect((await sync(one.workspaceId)).state).toBe('done');
    const otherTables = async () => ({
      backlinks: await rowsOf(other.workspaceId),
      measures: await t.db.selectFrom('backlink_measures').selectAll().where('workspace_id', '=', other.workspaceId).execute(),
      referring: await t.db.selectFrom('referring_domains').selectAll().where('workspace_id', '=', other.workspaceId).execute(),
    });
    expect(await otherTables()).toEqual({ backlinks: [], measures: [], referring: [] });

    expect((await sync(other.workspaceId)).state).toBe('done');
    const synced = await otherTables();
    fake.setBacklinks('shared.example', [{ urlFrom: 'https://x.example/', urlTo: 'https://shared.example/', isLost: true, domainFromRank: 9 }]);
    fake.setReferringDomains('shared.example', []);
    t.clock.advance(HOUR / 4);
    expect((await sync(one.workspaceId)).state).toBe('done');
    expect(await otherTables()).toEqual(synced);
    expect((await rowsOf(one.workspaceId))[0]!.status).toBe('lost');
  });

  it('retries when the index keeps answering rate-limited, then succeeds on a later attempt', async () => {
    const { workspaceId } = await t.workspace({ site: 'https://eps.example' });
    const limited = { requestError: { code: 40202, message: 'Rate-limit per minute exceeded.' } };
    fake.failNext('summary', limited, limited, limited);
    const { jobId } = await queueBacklinkSync(t.db, t.clock, workspaceId);
    await t.jobs.drain();
    const waiting = await t.db.selectFrom('jobs').select(['state', 'error', 'run_at']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({ state: 'queued', error: 'DataForSEO status 40202: Rate-limit per minute exceeded. (after 3 attempts)' });
    t.clock.set(waiting.run_at);
    await t.jobs.drain();
    expect(await t.db.selectFrom('jobs').select('state').where('id', '=', jobId).executeTakeFirstOrThrow()).toEqual({ state: 'done' });
  });

  it('fails at once, changing nothing, on a task error the index reports', async () => {
    const { workspaceId } = await t.workspace({ site: 'https://zeta.example' });
    fake.failNext('backlinks', { taskError: { code: 40204, message: 'Access denied. Visit Plans and Subscriptions to activate your subscription and get access to this API.' } });
    const job = await sync(workspaceId);
    expect(job).toMatchObject({ state: 'failed', attempts: 1, error: 'DataForSEO status 40204: Access denied. Visit Plans and Subscriptions to activate your subscription and get access to this API.' });
    expect(await rowsOf(workspaceId)).toEqual([]);
    expect(await t.db.selectFrom('backlink_measures').select('id').where('workspace_id', '=', workspaceId).execute()).toEqual([]);
  });

  it('is queued once a week for each workspace by the sweep, and not twice while one is waiting', async () => {
    await t.db.deleteFrom('jobs').where('kind', '=', 'backlink_sync').execute();
    const { workspaceId } = await t.workspace({ site: 'https://weekly.example' });
    const workspaces = await t.db.selectFrom('workspaces').select('id').execute();
    expect(await queueDueBacklinkSyncs(t.db, t.clock, t.service.services)).toBe(workspaces.length);
    expect(await queueDueBacklinkSyncs(t.db, t.clock, t.service.services)).toBe(0);
    expect(await queueBacklinkSync(t.db, t.clock, workspaceId)).toMatchObject({ queued: false });
    await t.jobs.drain();
    t.clock.advance(6 * DAY);
    expect(await queueDueBacklinkSyncs(t.db, t.clock, t.service.services)).toBe(0);
    t.clock.advance(DAY + HOUR);
    // The service's hourly sweep does it on its own.
    const before = await t.db.selectFrom('jobs').select('id').where('kind', '=', 'backlink_sync').where('workspace_id', '=', workspaceId).execute();
    await t.jobs.drain();
    const after = await t.db.selectFrom('jobs').select(['id', 'state']).where('kind', '=', 'backlink_sync').where('workspace_id', '=', workspaceId).execute();
    expect(after).toHaveLength(before.length + 1);
    expect(after.every((job) => job.state === 'done')).toBe(true);
  });
});

describe('backlink_sync without a configured index', () => {
  let bare: TestService;
  beforeAll(async () => {
    bare = await TestService.start({ writer: false });
  });
  afterAll(() => bare.close());

  it('is never queued by the sweep, and a queued one fails naming the settings to set', async () => {
    const { workspaceId } = await bare.workspace();
    expect(bare.service.services.backlinkIndex).toBeUndefined();
    expect(await queueDueBacklinkSyncs(bare.db, bare.clock, bare.service.services)).toBe(0);
    const { jobId } = await queueBacklinkSync(bare.db, bare.clock, workspaceId);
    await bare.jobs.drain();
    expect(await bare.db.selectFrom('jobs').select(['state', 'error']).where('id', '=', jobId).executeTakeFirstOrThrow()).toEqual({
      state: 'failed',
      error:
        "The backlink index is not configured: the operator must set BACKLINKS_BASE_URL, BACKLINKS_LOGIN and BACKLINKS_PASSWORD (or the SERP provider's SERP_BASE_URL, SERP_LOGIN and SERP_PASSWORD)",
    });
  });
});

describe('backlink_sync on the SERP provider account', () => {
  let serpOnly: TestService;
  beforeAll(async () => {
    serpOnly = await TestService.start({ writer: false, env: fake.serpEnv() });
  });
  afterAll(() => serpOnly.close());

  it('uses SERP_* when BACKLINKS_* is not set', async () => {
    const { workspaceId } = await serpOnly.workspace({ site: 'https://serp-only.example' });
    fake.setBacklinks('serp-only.example', [{ urlFrom: 'https://y.example/', urlTo: 'https://serp-only.example/', domainFromRank: 3 }]);
    const { jobId } = await queueBacklinkSync(serpOnly.db, serpOnly.clock, workspaceId);
    await serpOnly.jobs.drain();
    expect(await serpOnly.db.selectFrom('jobs').select('state').where('id', '=', jobId).executeTakeFirstOrThrow()).toEqual({ state: 'done' });
    expect(await serpOnly.db.selectFrom('backlinks').select(['linking_url', 'source']).where('workspace_id', '=', workspaceId).execute()).toEqual([
      { linking_url: 'https://y.example/', source: 'index' },
    ]);
    expect(fake.requests.every((r) => r.authorization === `Basic ${Buffer.from(`${fake.login}:${fake.password}`).toString('base64')}`)).toBe(true);
  });
});
