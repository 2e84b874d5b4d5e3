import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BacklinkSource, BacklinkStatus, OutreachStage } from '../../db/schema.js';
import { recordPlacedLink } from '../../src/backlinks/knownLinks.js';
import { newId } from '../../src/ids.js';
import { START_TIME, TestService, type TestWorkspace } from '../support/harness.js';
import { backlinkRow } from './support.js';

const MINUTE = 60_000;

interface Row {
  linkingUrl: string;
  status: BacklinkStatus;
  source?: BacklinkSource;
  authority?: number | null;
  metric?: string | null;
  minutesAgo: number;
}

async function seed(t: TestService, ws: TestWorkspace, rows: Row[]): Promise<void> {
  await t.db
    .insertInto('backlinks')
    .values(
      rows.map((row) =>
        backlinkRow(START_TIME - row.minutesAgo * MINUTE, {
          workspace_id: ws.workspaceId,
          linking_url: row.linkingUrl,
          domain_authority: row.authority ?? null,
          authority_metric: row.metric ?? null,
          status: row.status,
          source: row.source ?? 'index',
          lost_at: row.status === 'lost' ? START_TIME : null,
          status_changed_at: START_TIME,
        }),
      ),
    )
    .execute();
}

async function prospects(t: TestService, ws: TestWorkspace, stages: OutreachStage[]): Promise<void> {
  await t.db
    .insertInto('outreach_prospects')
    .values(
      stages.map((stage, i) => ({
        id: newId('prs'),
        workspace_id: ws.workspaceId,
        domain: `prospect-${i}.example`,
        page_url: null,
        title: null,
        origin: 'import' as const,
        reason: 'imported',
        target_url: null,
        stage,
        stage_changed_at: START_TIME,
        contact_email: null,
        contact_name: null,
        contact_confidence: null,
        contact_source: null,
        contact_found_at: null,
        created_at: START_TIME,
      })),
    )
    .execute();
}

describe('list_backlinks and get_backlink_stats', () => {
  let t: TestService;
  let ws: TestWorkspace;
  let other: TestWorkspace;

  beforeAll(async () => {
    t = await TestService.start();
    t.clock.set(START_TIME);
    ws = await t.workspace();
    other = await t.workspace();
    await seed(t, ws, [
      { linkingUrl: 'https://blog.one.example/post', status: 'discovered', authority: 300, metric: 'dataforseo_domain_rank', minutesAgo: 50 },
      { linkingUrl: 'https://www.two.example/a', status: 'discovered', authority: 100, metric: 'dataforseo_domain_rank', minutesAgo: 40 },
      { linkingUrl: 'https://two.example/b', status: 'verified', authority: 200, metric: 'dataforseo_domain_rank', minutesAgo: 30 },
      { linkingUrl: 'https://three.example/gone', status: 'lost', authority: 900, metric: 'dataforseo_domain_rank', minutesAgo: 20 },
      { linkingUrl: 'https://four.example/moz', status: 'verified', authority: 40, metric: 'moz_domain_authority', minutesAgo: 10 },
      { linkingUrl: 'https://www.reddit.com/r/crm/comments/1', status: 'verified', source: 'managed', minutesAgo: 5 },
      { linkingUrl: 'https://partner.example/guide', status: 'placed', source: 'network', minutesAgo: 4 },
      { linkingUrl: 'https://gone.example/x', status: 'lost', source: 'outreach', minutesAgo: 3 },
    ]);
    await prospects(t, ws, ['identified', 'identified', 'contacted', 'replied', 'link_placed', 'rejected']);
    await seed(t, other, [{ linkingUrl: 'https://elsewhere.example/', status: 'verified', minutesAgo: 1 }]);
  });
  afterAll(() => t.close());

  it('lists newest first, filters by status, and pages without skipping or repeating', async () => {
    const all = await t.rest(ws.key, 'GET', '/api/v1/backlinks');
    expect(all.status).toBe(200);
    const listed = all.body.data as { total: number; backlinks: Array<Record<string, unknown>>; nextCursor: string | null };
    expect(listed.total).toBe(8);
    expect(listed.backlinks.map((row) => row.linkingUrl)).toEqual([
      'https://gone.example/x',
      'https://partner.example/guide',
      'https://www.reddit.com/r/crm/comments/1',
      'https://four.example/moz',
      'https://three.example/gone',
      'https://two.example/b',
      'https://www.two.example/a',
      'https://blog.one.example/post',
    ]);
    expect(listed.backlinks[7]).toMatchObject({ linkingDomain: 'blog.one.example', domainAuthority: 300, authorityMetric: 'dataforseo_domain_rank', source: 'index', dofollow: true });
    expect(listed.nextCursor).toBeNull();

    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await t.mcpTool(ws.key, 'list_backlinks', { limit: 3, ...(cursor ? { cursor } : {}) });
      const data = page.structuredContent as { backlinks: Array<{ backlinkId: string }>; nextCursor: string | null };
      seen.push(...data.backlinks.map((row) => row.backlinkId));
      cursor = data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(listed.backlinks.map((row) => row.backlinkId));

    const verified = await t.rest(ws.key, 'GET', '/api/v1/backlinks?status=verified');
    const rows = (verified.body.data as { total: number; backlinks: Array<{ status: string }> });
    expect(rows.total).toBe(3);
    expect(rows.backlinks.every((row) => row.status === 'verified')).toBe(true);
  });

  it('computes every stat from the stored rows, avgDA naming the metric it averages', async () => {
    await t.db
      .insertInto('backlink_measures')
      .values([
        { id: newId('bm'), workspace_id: ws.workspaceId, provider: 'commoncrawl', indexed_backlinks: null, referring_domains: 44, detail: null, measured_at: START_TIME - 1000 },
        { id: newId('bm'), workspace_id: ws.workspaceId, provider: 'dataforseo', indexed_backlinks: 1234, referring_domains: 56, detail: null, measured_at: START_TIME - 2000 },
      ])
      .execute();
    const stats = await t.rest(ws.key, 'GET', '/api/v1/backlinks/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.data).toEqual({
      total: 8,
      discovered: 2,
      verified: 3,
      lost: 2,
      // Live rows with DataForSEO's rank (the metric most rows carry): 300, 100, 200; the lost 900 and Moz's 40 are out.
      avgDA: 200,
      avgDAMetric: 'dataforseo_domain_rank',
      avgDARows: 3,
      // one, two, four, reddit, partner: lost rows' domains are not counted.
      uniqueDomains: 5,
      indexedBacklinks: 1234,
      indexedMeasuredAt: new Date(START_TIME - 2000).toISOString(),
      referringDomains: 56,
      referringDomainsSource: 'dataforseo',
      referringMeasuredAt: new Date(START_TIME - 2000).toISOString(),
      outreach: { identified: 2, contacted: 1, replied: 1, linkPlaced: 1, rejected: 1 },
      built: { outreach: 0, social: 1, network: 1, managed: 1 },
    });
    const mcp = await t.mcpTool(ws.key, 'get_backlink_stats', {});
    expect(mcp.structuredContent).toEqual(stats.body.data);
  });

  it('leaves the totals out until measured, and shows another workspace nothing of this one', async () => {
    const stats = (await t.rest(other.key, 'GET', '/api/v1/backlinks/stats')).body.data as Record<string, unknown>;
    expect(stats).toMatchObject({ total: 1, verified: 1, avgDA: null, avgDAMetric: null, uniqueDomains: 1 });
    expect(stats).not.toHaveProperty('indexedBacklinks');
    expect(stats).not.toHaveProperty('referringDomains');
    const listed = (await t.rest(other.key, 'GET', '/api/v1/backlinks')).body.data as { backlinks: Array<{ linkingUrl: string }> };
    expect(listed.backlinks.map((row) => row.linkingUrl)).toEqual(['https://elsewhere.example/']);
  });

  it('records a placed link due for verification, keeping one row per link', async () => {
    const id = await recordPlacedLink(t.db, t.clock, { workspaceId: other.workspaceId, linkingUrl: 'https://elsewhere.example/', targetUrl: 'https://acme.example/', anchorText: 'Acme', dofollow: false, source: 'outreach' });
    const row = await t.db.selectFrom('backlinks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source: 'outreach', status: 'link_placed', next_check_at: START_TIME, placed_at: START_TIME });
    expect((await t.db.selectFrom('backlinks').select('id').where('workspace_id', '=', other.workspaceId).execute()).length).toBe(1);
  });

  it.each([
    ['an unknown status', '?status=live', 'status'],
    ['a cursor it did not write', '?cursor=abc', 'cursor: must be a nextCursor from an earlier answer'],
    ['a page size of 0', '?limit=0', 'limit'],
    ['an unknown parameter', '?sort=asc', 'sort'],
  ])('refuses %s with a 400 naming the field, on both surfaces', async (_, query, field) => {
    const rest = await t.rest(ws.key, 'GET', `/api/v1/backlinks${query}`);
    expect(rest.status).toBe(400);
    expect(String(rest.body.error)).toContain(field);
    const params = Object.fromEntries(new URLSearchParams(query.slice(1)));
    const parsed = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, key === 'limit' ? Number(value) : value]));
    const mcp = await t.mcpTool(ws.key, 'list_backlinks', parsed);
    expect(mcp.isError).toBe(true);
    expect(mcp.text).toContain(field);
  });
});

describe('the tallies behind the stats', () => {
  let t: TestService;
  afterAll(() => t?.close());

  it('follow every insert, update and delete of backlinks, whichever code writes', async () => {
    t = await TestService.start();
    t.clock.set(START_TIME);
    const ws = await t.workspace();
    await seed(t, ws, [
      { linkingUrl: 'https://a.example/1', status: 'discovered', authority: 10, metric: 'dataforseo_domain_rank', minutesAgo: 9 },
      { linkingUrl: 'https://a.example/2', status: 'discovered', authority: 30, metric: 'dataforseo_domain_rank', minutesAgo: 8 },
      { linkingUrl: 'https://b.example/1', status: 'verified', source: 'outreach', minutesAgo: 7 },
      { linkingUrl: 'https://c.example/1', status: 'lost', minutesAgo: 6 },
    ]);
    // A link lost, one found again, an authority changed, a row deleted, a row moved to another domain.
    await t.db.updateTable('backlinks').set({ status: 'lost' }).where('linking_url', '=', 'https://a.example/1').execute();
    await t.db.updateTable('backlinks').set({ status: 'verified' }).where('linking_url', '=', 'https://c.example/1').execute();
    await t.db.updateTable('backlinks').set({ domain_authority: 50 }).where('linking_url', '=', 'https://a.example/2').execute();
    await t.db.deleteFrom('backlinks').where('linking_url', '=', 'https://b.example/1').execute();
    await t.db.updateTable('backlinks').set({ next_check_at: START_TIME }).execute();

    const stats = (await t.rest(ws.key, 'GET', '/api/v1/backlinks/stats')).body.data as Record<string, unknown>;
    const rows = await t.db.selectFrom('backlinks').selectAll().where('workspace_id', '=', ws.workspaceId).execute();
    const live = rows.filter((row) => ['discovered', 'verified', 'placed', 'link_placed'].includes(row.status));
    const rated = live.filter((row) => row.authority_metric === 'dataforseo_domain_rank');
    expect(stats).toMatchObject({
      total: rows.length,
      discovered: rows.filter((row) => row.status === 'discovered').length,
      verified: rows.filter((row) => row.status === 'verified').length,
      lost: rows.filter((row) => row.status === 'lost').length,
      avgDA: rated.reduce((sum, row) => sum + row.domain_authority!, 0) / rated.length,
      uniqueDomains: new Set(live.map((row) => row.linking_domain)).size,
      built: { outreach: 0, social: 0, network: 0, managed: 0 },
    });
    expect(stats).toMatchObject({ total: 3, discovered: 1, verified: 1, lost: 1, avgDA: 50, uniqueDomains: 2 });
    const listed = (await t.rest(ws.key, 'GET', '/api/v1/backlinks?status=lost')).body.data as { total: number };
    expect(listed.total).toBe(1);
  });
});
