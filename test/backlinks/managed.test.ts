import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_HANDLERS } from '../../src/jobs/handlers.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { queueDueVerifications } from '../../src/backlinks/verify.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import { backlinkRow } from './support.js';

const WEEK_MS = 7 * 86_400_000;

let t: TestService;
let worker: JobWorker;
let site: Awaited<ReturnType<typeof startHttpsServer>>;
let origin: string;

beforeAll(async () => {
  // The partner's page, linking to the workspace's pricing page.
  site = await startHttpsServer((req, res) => {
    if (req.url !== '/review') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>We use <a href="https://acme.example/pricing" rel="sponsored">Acme</a>.</p>');
  });
  origin = `https://127.0.0.1:${site.port}`;
  t = await TestService.start({ writer: false, outbound: { allowPrivateAddresses: true } });
  worker = new JobWorker({ db: t.db, clock: t.clock, services: t.service.services, logger: pino({ level: 'silent' }), handlers: JOB_HANDLERS });
});
afterAll(async () => {
  await closeServer(site.server);
  await t.close();
});

const add = (ws: TestWorkspace, body: Record<string, unknown>) => t.rest(ws.key, 'POST', '/api/v1/backlinks/managed', body);
const remove = (ws: TestWorkspace, body: Record<string, unknown>) => t.rest(ws.key, 'POST', '/api/v1/backlinks/managed/remove', body);
const list = async (ws: TestWorkspace) => (await t.rest(ws.key, 'GET', '/api/v1/backlinks')).body.data as { total: number; backlinks: Array<Record<string, unknown>> };
const stats = async (ws: TestWorkspace) => (await t.rest(ws.key, 'GET', '/api/v1/backlinks/stats')).body.data as { total: number; verified: number; built: Record<string, number> };
const rows = (ws: TestWorkspace) => t.db.selectFrom('backlinks').selectAll().where('workspace_id', '=', ws.workspaceId).orderBy('id').execute();

async function insertRow(ws: TestWorkspace, source: 'index' | 'outreach' | 'network', linkingUrl: string): Promise<string> {
  const now = t.clock.now();
  const row = backlinkRow(now, {
    workspace_id: ws.workspaceId,
    linking_url: linkingUrl,
    status: source === 'index' ? 'discovered' : 'placed',
    source,
    placement_id: source === 'network' ? 'plc_x' : null,
    placed_at: source === 'index' ? null : now,
    next_check_at: source === 'index' ? null : now + WEEK_MS,
  });
  await t.db.insertInto('backlinks').values(row).execute();
  return row.id;
}

describe('add_managed_backlink', () => {
  it('records the link as managed and placed, listed and counted, due now; verification then reads the real rel', async () => {
    const ws = await t.workspace();
    const answer = await add(ws, { linkingUrl: `${origin}/review`, targetUrl: 'https://acme.example/pricing', anchorText: 'Acme pricing', dofollow: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const row = answer.body.data as Record<string, unknown>;
    expect(row).toMatchObject({
      linkingUrl: `${origin}/review`,
      linkingDomain: '127.0.0.1',
      targetUrl: 'https://acme.example/pricing',
      anchorText: 'Acme pricing',
      dofollow: true,
      status: 'placed',
      source: 'managed',
      placedAt: new Date(t.clock.now()).toISOString(),
      lastVerifiedAt: null,
    });
    expect((await list(ws)).backlinks).toEqual([row]);
    expect(await stats(ws)).toMatchObject({ total: 1, built: { outreach: 0, social: 0, network: 0, managed: 1 } });
    const [stored] = await rows(ws);
    expect(stored!.next_check_at).toBe(t.clock.now());

    // The same link again is the same row.
    const again = await add(ws, { linkingUrl: `${origin}/review`, targetUrl: 'https://acme.example/pricing' });
    expect((again.body.data as { backlinkId: string }).backlinkId).toBe(row.backlinkId);
    expect(await rows(ws)).toHaveLength(1);

    t.clock.advance(60_000);
    expect((await queueDueVerifications(t.db, t.clock, { workspaceId: ws.workspaceId })).links).toBe(1);
    await worker.drain();
    const [verified] = (await list(ws)).backlinks;
    // The page's rel says sponsored: not followed, whatever was asked.
    expect(verified).toMatchObject({ backlinkId: row.backlinkId, status: 'verified', dofollow: false, anchorText: 'Acme', lastVerifiedAt: new Date(t.clock.now()).toISOString() });
    expect(await stats(ws)).toMatchObject({ verified: 1, built: { managed: 1 } });
  });

  it('targets the website by default, and takes over a row the index found', async () => {
    const ws = await t.workspace();
    const indexed = await insertRow(ws, 'index', 'https://news.example/story');
    const answer = await add(ws, { linkingUrl: 'https://news.example/story' });
    expect(answer.body.data).toMatchObject({ backlinkId: indexed, targetUrl: 'https://acme.example/', source: 'managed', status: 'placed', anchorText: 'Acme' });
    const blog = await add(ws, { linkingUrl: 'https://blog.example/p' });
    expect(blog.body.data).toMatchObject({ targetUrl: 'https://acme.example/', dofollow: true, anchorText: '' });
  });

  it('refuses bad input with 400 naming the field, on REST and MCP alike, and changes nothing', async () => {
    const ws = await t.workspace();
    const outreach = await insertRow(ws, 'outreach', 'https://partner.example/post');
    const network = await insertRow(ws, 'network', 'https://member.example/post');
    const before = await rows(ws);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^linkingUrl: is required/],
      [{ linkingUrl: 'ftp://blog.example/p' }, /^linkingUrl: must be an absolute http\(s\) URL/],
      [{ linkingUrl: 'https://acme.example/blog' }, /^linkingUrl: must be a page on another site/],
      [{ linkingUrl: 'https://www.acme.example/' }, /^linkingUrl: must be a page on another site/],
      [{ linkingUrl: 'https://docs.acme.example/' }, /^linkingUrl: must be a page on another site/],
      [{ linkingUrl: 'https://blog.example/p', targetUrl: 'https://other.example/' }, /^targetUrl: must be a page of the workspace's website \(acme\.example\)/],
      [{ linkingUrl: 'https://blog.example/p', targetUrl: 'not a url' }, /^targetUrl: /],
      [{ linkingUrl: 'https://blog.example/p', anchorText: 'x'.repeat(301) }, /^anchorText: /],
      [{ linkingUrl: 'https://blog.example/p', dofollow: 'yes' }, /^dofollow: /],
      [{ linkingUrl: 'https://blog.example/p', status: 'verified' }, /^status: is not a field/],
      [{ linkingUrl: 'https://partner.example/post', targetUrl: 'https://acme.example/' }, new RegExp(`^linkingUrl: this link is already tracked as backlink ${outreach}, which was recorded by outreach`)],
      [{ linkingUrl: 'https://member.example/post', targetUrl: 'https://acme.example/' }, new RegExp(`^linkingUrl: this link is already tracked as backlink ${network}, which is a link-network placement`)],
    ];
    for (const [body, message] of cases) {
      const answer = await add(ws, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(String(answer.body.error)).toMatch(message);
      const mcp = await t.mcpTool(ws.key, 'add_managed_backlink', body);
      expect(mcp.isError, JSON.stringify(body)).toBe(true);
      // The same rule text, wherever the MCP answer puts it.
      expect(mcp.text).toMatch(new RegExp(message.source.replace(/^\^/, '')));
    }
    expect(await rows(ws)).toEqual(before);
  });
});

describe('remove_managed_backlink', () => {
  it("stops tracking a managed link: the row goes, and the stats' tallies with it", async () => {
    const ws = await t.workspace();
    const kept = (await add(ws, { linkingUrl: 'https://kept.example/p' })).body.data as { backlinkId: string };
    const gone = (await add(ws, { linkingUrl: 'https://gone.example/p', anchorText: 'Acme' })).body.data as { backlinkId: string; linkingUrl: string };
    expect(await stats(ws)).toMatchObject({ total: 2, built: { managed: 2 } });
    const answer = await remove(ws, { backlinkId: gone.backlinkId });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ removed: gone });
    expect((await list(ws)).backlinks.map((b) => b.backlinkId)).toEqual([kept.backlinkId]);
    expect(await stats(ws)).toMatchObject({ total: 1, built: { managed: 1 } });
    // Over MCP too; a removed row is then not found.
    const mcp = await t.mcpTool(ws.key, 'remove_managed_backlink', { backlinkId: kept.backlinkId });
    expect(mcp.isError).toBe(false);
    expect((await list(ws)).total).toBe(0);
    expect((await remove(ws, { backlinkId: kept.backlinkId })).status).toBe(404);
  });

  it('refuses rows of other sources with 400 naming backlinkId and the reason, and another workspace\'s row with 404', async () => {
    const ws = await t.workspace();
    const index = await insertRow(ws, 'index', 'https://found.example/p');
    const outreach = await insertRow(ws, 'outreach', 'https://partner.example/p');
    const network = await insertRow(ws, 'network', 'https://member.example/p');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^backlinkId: is required/],
      [{ backlinkId: '' }, /^backlinkId: /],
      [{ backlinkId: index }, /^backlinkId: backlink \S+ comes from the backlink index/],
      [{ backlinkId: outreach }, /^backlinkId: backlink \S+ was recorded by outreach/],
      [{ backlinkId: network }, /^backlinkId: backlink \S+ is a link-network placement; retire it with remove_link_placement/],
    ];
    for (const [body, message] of cases) {
      const answer = await remove(ws, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(String(answer.body.error)).toMatch(message);
      const mcp = await t.mcpTool(ws.key, 'remove_managed_backlink', body);
      expect(mcp.isError).toBe(true);
    }
    expect(await rows(ws)).toHaveLength(3);

    const other = await t.workspace();
    const managed = (await add(ws, { linkingUrl: 'https://kept.example/p' })).body.data as { backlinkId: string };
    const foreign = await remove(other, { backlinkId: managed.backlinkId });
    expect(foreign.status).toBe(404);
    expect(String(foreign.body.error)).toMatch(/not found/);
    const mcp = await t.mcpTool(other.key, 'remove_managed_backlink', { backlinkId: managed.backlinkId });
    expect(mcp.isError).toBe(true);
    expect(mcp.text).toMatch(/not found/);
    expect(await rows(ws)).toHaveLength(4);
  });
});
