import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutreachStage } from '../../db/schema.js';
import { newId } from '../../src/ids.js';
import { STAGE_MOVES } from '../../src/outreach/stages.js';
import { recordRankCheck } from '../../src/visibility/checks/record.js';
import { runCli } from '../cli/support.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { addCompetitor, addQuery, AnswerRecorder } from '../visibility/checks/support.js';

let t: TestService;

beforeAll(async () => {
  t = await TestService.start();
});

afterAll(async () => {
  await t?.close();
});

interface Prospect {
  prospectId: string;
  domain: string;
  pageUrl: string | null;
  origin: string;
  reason: string;
  stage: OutreachStage;
  targetUrl: string | null;
  contact: { email: string; name: string | null; confidence: number | null; source: string | null } | null;
}

interface ProspectList {
  total: number;
  nextPage: number | null;
  counts: Record<OutreachStage, number>;
  prospects: Prospect[];
}

async function list(ws: TestWorkspace, query: Record<string, unknown> = {}): Promise<ProspectList> {
  const answer = await t.rest(ws.key, 'GET', '/api/v1/outreach/prospects', query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as ProspectList;
}

async function add(ws: TestWorkspace, prospects: Array<Record<string, unknown>>) {
  const answer = await t.rest(ws.key, 'POST', '/api/v1/outreach/prospects', { prospects });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as { added: number; skipped: number; prospects: Array<{ domain: string; prospectId: string | null; skipped: string | null }> };
}

const move = (ws: TestWorkspace, body: Record<string, unknown>) => t.rest(ws.key, 'POST', '/api/v1/outreach/status', body);

/** A prospect put straight in the table at a stage (the import's cap is not what these tests are about). */
async function prospectIn(ws: TestWorkspace, stage: OutreachStage): Promise<string> {
  const prospectId = newId('pros');
  await t.db
    .insertInto('outreach_prospects')
    .values({
      id: prospectId,
      workspace_id: ws.workspaceId,
      domain: `${prospectId.toLowerCase().replace(/[^a-z0-9]/g, '')}.example`,
      page_url: null,
      title: null,
      origin: 'import',
      reason: 'Imported by the owner',
      target_url: null,
      stage,
      stage_changed_at: t.clock.now(),
      contact_email: null,
      contact_name: null,
      contact_confidence: null,
      contact_source: null,
      contact_found_at: null,
      created_at: t.clock.now(),
    })
    .execute();
  return prospectId;
}

const countRows = async (table: 'outreach_prospects' | 'backlinks', workspaceId: string) =>
  Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()).n);

describe('discovery from the data the service holds', () => {
  it('finds pages citing competitors, competitors\' referring domains and ranking pages, leaving out the own site, competitors and platforms', async () => {
    const ws = await t.workspace({ site: 'https://acme.example' });
    await addCompetitor(t, ws, 'Rival CRM', 'https://rival.example');
    const queryId = await addQuery(t, ws, 'best crm for dentists');
    // An existing prospect keeps its stage whatever discovery finds.
    const { prospects } = await add(ws, [{ domain: 'reviews.example' }]);
    await t.db.updateTable('outreach_prospects').set({ stage: 'rejected' }).where('id', '=', prospects[0]!.prospectId!).execute();
    await t.db
      .insertInto('referring_domains')
      .values([
        { workspace_id: ws.workspaceId, target_domain: 'rival.example', referring_domain: 'linksrival.example', provider: 'dataforseo', links: 4, rank: 310, measured_at: t.clock.now() },
        { workspace_id: ws.workspaceId, target_domain: 'rival.example', referring_domain: 'both.example', provider: 'dataforseo', links: 2, rank: 200, measured_at: t.clock.now() },
        { workspace_id: ws.workspaceId, target_domain: 'acme.example', referring_domain: 'both.example', provider: 'dataforseo', links: 1, rank: 200, measured_at: t.clock.now() },
        { workspace_id: ws.workspaceId, target_domain: 'rival.example', referring_domain: 'www.google.com', provider: 'commoncrawl', links: null, rank: null, measured_at: t.clock.now() },
      ])
      .execute();

    const recorder = await AnswerRecorder.start(t, ws, 2);
    await recorder.answer('perplexity', queryId, 'Rival CRM is the usual pick for dental practices.', [
      'https://www.reviews.example/best-dental-crm',
      'https://crmweekly.example/dentists',
      'https://rival.example/pricing',
      'https://www.reddit.com/r/dentistry/comments/1',
      'https://acme.example/blog/crm',
    ]);
    await recordRankCheck(t.db, t.clock, {
      workspaceId: ws.workspaceId,
      runId: recorder.runId,
      queryId,
      searchEngine: 'google',
      organic: [
        { position: 1, url: 'https://acme.example/crm', domain: 'acme.example', title: 'Acme' },
        { position: 2, url: 'https://blog.rival.example/crm', domain: 'blog.rival.example', title: 'Rival' },
        { position: 3, url: 'https://www.youtube.com/watch?v=1', domain: 'youtube.com', title: 'Video' },
        { position: 4, url: 'https://dentalblog.example/crm-guide', domain: 'dentalblog.example', title: 'CRM guide for dentists' },
        { position: 12, url: 'https://deep.example/crm', domain: 'deep.example', title: 'Deep' },
      ],
      aiOverview: null,
      error: null,
    });
    // The run closed with those two checks: its last one queued the search.
    const queued = await t.db.selectFrom('jobs').select('kind').where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'outreach_discover').execute();
    expect(queued).toHaveLength(1);
    await t.jobs.drain();

    const { prospects: found, counts } = await list(ws);
    const byDomain = new Map(found.map((p) => [p.domain, p]));
    expect([...byDomain.keys()].sort()).toEqual(['crmweekly.example', 'dentalblog.example', 'linksrival.example', 'reviews.example']);
    expect(byDomain.get('reviews.example')).toMatchObject({ origin: 'import', stage: 'rejected' });
    expect(byDomain.get('crmweekly.example')).toMatchObject({
      origin: 'competitor_citation',
      pageUrl: 'https://crmweekly.example/dentists',
      stage: 'identified',
      reason: 'Perplexity cites this page in its answer to "best crm for dentists", which names Rival CRM',
    });
    expect(byDomain.get('linksrival.example')).toMatchObject({ origin: 'competitor_referrer', pageUrl: null, reason: expect.stringContaining('Links to Rival CRM (rival.example) but not to this site') });
    expect(byDomain.get('dentalblog.example')).toMatchObject({ origin: 'ranking_page', pageUrl: 'https://dentalblog.example/crm-guide', reason: 'Ranks #4 on Google for "best crm for dentists"' });
    expect(counts).toEqual({ identified: 3, contacted: 0, replied: 0, link_placed: 0, rejected: 1 });

    // Found again the next day: nothing is added twice and the stages stay.
    await t.db.updateTable('outreach_prospects').set({ stage: 'contacted' }).where('workspace_id', '=', ws.workspaceId).where('domain', '=', 'crmweekly.example').execute();
    t.clock.advance(86_400_000);
    await t.jobs.drain();
    const again = await list(ws);
    expect(again.prospects).toHaveLength(4);
    expect(again.counts).toMatchObject({ identified: 2, contacted: 1, rejected: 1 });
  });
});

describe('list_outreach_prospects', () => {
  it('pages the pipeline, filters by stage and counts every stage; another workspace sees none of it', async () => {
    const ws = await t.workspace();
    await add(ws, Array.from({ length: 5 }, (_, i) => ({ domain: `site${i}.example`, contactEmail: `Editor${i}@site${i}.example`, contactName: 'Ed' })));
    await t.db.updateTable('outreach_prospects').set({ stage: 'contacted' }).where('workspace_id', '=', ws.workspaceId).where('domain', 'in', ['site1.example', 'site2.example']).execute();
    const first = await list(ws, { limit: 2 });
    expect(first).toMatchObject({ total: 5, nextPage: 2, counts: { identified: 3, contacted: 2, replied: 0, link_placed: 0, rejected: 0 } });
    expect(first.prospects).toHaveLength(2);
    const last = await list(ws, { limit: 2, page: 3 });
    expect(last).toMatchObject({ nextPage: null });
    expect(last.prospects).toHaveLength(1);
    const contacted = await list(ws, { stage: 'contacted' });
    expect(contacted.total).toBe(2);
    expect(contacted.prospects.map((p) => p.domain).sort()).toEqual(['site1.example', 'site2.example']);
    expect(contacted.prospects[0]!.contact).toMatchObject({ email: expect.stringMatching(/^editor\d@site\d\.example$/), name: 'Ed', confidence: null, source: 'import' });
    // MCP gives the same.
    const viaMcp = await t.mcpTool(ws.key, 'list_outreach_prospects', { stage: 'contacted' });
    expect((viaMcp.structuredContent as unknown as ProspectList).total).toBe(2);

    const other = await t.workspace();
    expect((await list(other)).total).toBe(0);
  });

  it('refuses a bad stage or page size with 400 naming the field', async () => {
    const ws = await t.workspace();
    for (const [query, field] of [
      [{ stage: 'won' }, 'stage'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ page: 0 }, 'page'],
    ] as const) {
      const answer = await t.rest(ws.key, 'GET', '/api/v1/outreach/prospects', query);
      expect(answer.status).toBe(400);
      expect(String(answer.body.error)).toMatch(new RegExp(`^${field}: `));
    }
  });
});

describe('add_outreach_prospects', () => {
  it('adds urls and domains as import prospects, skipping known domains, repeats and the own site', async () => {
    const ws = await t.workspace({ site: 'https://www.acme.example' });
    await add(ws, [{ domain: 'known.example' }]);
    const answer = await add(ws, [
      { url: 'https://www.Blog.example/crm-post', note: 'writes CRM roundups', contactEmail: 'Anna@blog.example', contactName: 'Anna Berg' },
      { domain: 'known.example' },
      { domain: 'WWW.Fresh.example' },
      { domain: 'fresh.example' },
      { url: 'https://acme.example/about' },
    ]);
    expect(answer).toMatchObject({ added: 2, skipped: 3 });
    expect(answer.prospects.map((p) => [p.domain, p.skipped])).toEqual([
      ['blog.example', null],
      ['known.example', 'exists'],
      ['fresh.example', null],
      ['fresh.example', 'duplicate'],
      ['acme.example', 'own_site'],
    ]);
    const blog = (await list(ws)).prospects.find((p) => p.domain === 'blog.example')!;
    expect(blog).toMatchObject({
      origin: 'import',
      stage: 'identified',
      pageUrl: 'https://www.Blog.example/crm-post',
      reason: 'Imported by the owner: writes CRM roundups',
      contact: { email: 'anna@blog.example', name: 'Anna Berg', confidence: null, source: 'import' },
    });
  });

  it('refuses bad items with 400 naming the item and field, adding none of the list', async () => {
    const ws = await t.workspace();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ prospects: [] }, /^prospects: must have at least 1 item/],
      [{ prospects: Array.from({ length: 501 }, (_, i) => ({ domain: `d${i}.example` })) }, /^prospects: must have at most 500 items/],
      [{ prospects: [{ domain: 'ok.example' }, {}] }, /^prospects\[1\]\.domain: give exactly one of url and domain/],
      [{ prospects: [{ domain: 'a.example', url: 'https://a.example/' }] }, /^prospects\[0\]\.domain: give exactly one/],
      [{ prospects: [{ domain: 'ok.example' }, { domain: 'not a domain' }] }, /^prospects\[1\]\.domain: must be a domain name/],
      [{ prospects: [{ url: 'ftp://a.example/' }] }, /^prospects\[0\]\.url: /],
      [{ prospects: [{ url: 'https://127.0.0.1/page' }] }, /^prospects\[0\]\.url: must be a URL on a named site/],
      [{ prospects: [{ domain: 'ok.example', contactEmail: 'nobody' }] }, /^prospects\[0\]\.contactEmail: must be an email address/],
      [{ prospects: [{ domain: 'ok.example', note: 'x'.repeat(501) }] }, /^prospects\[0\]\.note: must have at most 500 characters/],
      [{ prospects: [{ domain: 'ok.example', stage: 'contacted' }] }, /^prospects\[0\]\.stage: is not a field/],
    ];
    for (const [body, message] of cases) {
      const answer = await t.rest(ws.key, 'POST', '/api/v1/outreach/prospects', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(String(answer.body.error)).toMatch(message);
    }
    expect(await countRows('outreach_prospects', ws.workspaceId)).toBe(0);
  });
});

describe('set_outreach_status', () => {
  it('allows exactly the moves of STAGE_MOVES and refuses the others with 400 naming stage', async () => {
    const ws = await t.workspace();
    const stages = Object.keys(STAGE_MOVES) as OutreachStage[];
    for (const from of stages) {
      for (const to of stages) {
        const prospectId = await prospectIn(ws, from);
        const extra = to === 'link_placed' ? { linkingUrl: `https://host.example/post-${from}` } : {};
        const answer = await move(ws, { prospectId, stage: to, ...extra });
        const row = await t.db.selectFrom('outreach_prospects').select('stage').where('id', '=', prospectId).executeTakeFirstOrThrow();
        if (STAGE_MOVES[from].includes(to)) {
          expect(answer.status, `${from} → ${to}: ${JSON.stringify(answer.body)}`).toBe(200);
          expect(answer.body.data).toMatchObject({ previousStage: from, prospect: { prospectId, stage: to } });
          expect(row.stage).toBe(to);
        } else {
          expect(answer.status, `${from} → ${to}`).toBe(400);
          expect(String(answer.body.error)).toMatch(/^stage: /);
          expect(row.stage).toBe(from);
        }
      }
    }
  });

  it('link_placed records an outreach backlink due for verification, to the given target or the website', async () => {
    const ws = await t.workspace({ site: 'https://acme.example' });
    const prospectId = await prospectIn(ws, 'replied');
    const answer = await move(ws, { prospectId, stage: 'link_placed', linkingUrl: 'https://blog.example/best-crms', anchorText: 'Acme CRM' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { backlinkId } = answer.body.data as { backlinkId: string };
    const link = await t.db.selectFrom('backlinks').selectAll().where('id', '=', backlinkId).executeTakeFirstOrThrow();
    expect(link).toMatchObject({
      workspace_id: ws.workspaceId,
      linking_url: 'https://blog.example/best-crms',
      linking_domain: 'blog.example',
      target_url: 'https://acme.example',
      anchor_text: 'Acme CRM',
      source: 'outreach',
      status: 'link_placed',
      prospect_id: prospectId,
    });
    expect(Number(link.next_check_at)).toBe(t.clock.now());
    expect((answer.body.data as { prospect: Prospect }).prospect.targetUrl).toBe('https://acme.example');

    const second = await prospectIn(ws, 'contacted');
    const placed = await move(ws, { prospectId: second, stage: 'link_placed', linkingUrl: 'https://news.example/a', targetUrl: 'https://acme.example/pricing' });
    const row = await t.db.selectFrom('backlinks').select('target_url').where('id', '=', (placed.body.data as { backlinkId: string }).backlinkId).executeTakeFirstOrThrow();
    expect(row.target_url).toBe('https://acme.example/pricing');
  });

  it('refuses bad input with 400 naming the field and changes nothing; another workspace\'s prospect is 404', async () => {
    const ws = await t.workspace();
    const prospectId = await prospectIn(ws, 'contacted');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ stage: 'rejected' }, /^prospectId: is required/],
      [{ prospectId }, /^stage: is required/],
      [{ prospectId, stage: 'won' }, /^stage: must be one of/],
      [{ prospectId, stage: 'link_placed' }, /^linkingUrl: is required with stage link_placed/],
      [{ prospectId, stage: 'link_placed', linkingUrl: 'mailto:a@b.example' }, /^linkingUrl: must be an absolute http\(s\) URL/],
      [{ prospectId, stage: 'link_placed', linkingUrl: 'https://a.example/', targetUrl: 'not a url' }, /^targetUrl: /],
      [{ prospectId, stage: 'rejected', linkingUrl: 'https://a.example/' }, /^linkingUrl: only goes with stage link_placed/],
      [{ prospectId, stage: 'rejected', anchorText: 'x' }, /^anchorText: only goes with stage link_placed/],
      [{ prospectId, stage: 'link_placed', linkingUrl: 'https://a.example/', anchorText: 'x'.repeat(301) }, /^anchorText: must have at most 300/],
      [{ prospectId, stage: 'rejected', confirm: true }, /^confirm: is not a field/],
    ];
    for (const [body, message] of cases) {
      const answer = await move(ws, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(String(answer.body.error)).toMatch(message);
    }
    expect((await t.db.selectFrom('outreach_prospects').select('stage').where('id', '=', prospectId).executeTakeFirstOrThrow()).stage).toBe('contacted');
    expect(await countRows('backlinks', ws.workspaceId)).toBe(0);

    const other = await t.workspace();
    const foreign = await move(other, { prospectId, stage: 'rejected' });
    expect(foreign.status).toBe(404);
    const missing = await move(other, { prospectId: 'pros_missing', stage: 'rejected' });
    expect(missing.status).toBe(404);
    expect(foreign.body.error).toBe(String(missing.body.error).replace('pros_missing', prospectId));
  });
});

describe('sightline outreach import', () => {
  it('reads a CSV with the header url,email,name,note and sends it in chunks of 500', async () => {
    const ws = await t.workspace({ site: 'https://acme.example' });
    const dir = mkdtempSync(join(tmpdir(), 'outreach-import-'));
    const file = join(dir, 'prospects.csv');
    const rows = Array.from({ length: 520 }, (_, i) => `d${i}.example,,,`);
    writeFileSync(
      file,
      ['url,email,name,note', 'https://blog.example/post,anna@blog.example,"Berg, Anna","writes ""best of"" lists"', 'acme.example,,,', '', ...rows, 'd3.example,,,'].join('\r\n') + '\r\n',
    );
    const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), SIGHTLINE_URL: t.baseUrl, SIGHTLINE_API_KEY: ws.key };
    const result = await runCli(['outreach', 'import', file, '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ rows: 523, added: 521, skipped: 2 });
    const blog = (await t.db.selectFrom('outreach_prospects').selectAll().where('workspace_id', '=', ws.workspaceId).where('domain', '=', 'blog.example').executeTakeFirstOrThrow());
    expect(blog).toMatchObject({ origin: 'import', contact_email: 'anna@blog.example', contact_name: 'Berg, Anna', reason: 'Imported by the owner: writes "best of" lists' });

    // A bad row names its line in the file.
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'url,email\nok.example,\nbad.example,not-an-email\n');
    const refused = await runCli(['outreach', 'import', bad], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/bad\.csv line 3: prospects\[1\]\.contactEmail: must be an email address/);
    const blank = join(dir, 'blank.csv');
    writeFileSync(blank, 'email,url\nanna@ok.example,ok.example\nmax@blank.example,\n');
    const blankUrl = await runCli(['outreach', 'import', blank], env);
    expect(blankUrl.code).toBe(2);
    expect(blankUrl.stderr).toMatch(/blank\.csv line 3: column url is blank/);
    expect(blankUrl.stderr).not.toMatch(/prospects\[/);
    const header = join(dir, 'header.csv');
    writeFileSync(header, 'site,email\nok.example,\n');
    expect((await runCli(['outreach', 'import', header], env)).stderr).toMatch(/the first line must be the header url,email,name,note/);
  });
});
