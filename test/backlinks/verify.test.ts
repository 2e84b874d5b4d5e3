import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordPlacedLink, type PlacedLink } from '../../src/backlinks/knownLinks.js';
import { CLAIM_MS, LINKS_PER_JOB, makeKnownLinksDue, queueDueVerifications, UNREADABLE_RETRY_MS } from '../../src/backlinks/verify.js';
import { enqueueJob } from '../../src/jobs/queue.js';
import { JOB_HANDLERS } from '../../src/jobs/handlers.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { TestService } from '../support/harness.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import { backlinkRow } from './support.js';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const TARGET = 'https://acme.example/pricing';

/** The linking pages: path → how the page answers; every request is counted by path. */
type Page = (req: IncomingMessage, res: ServerResponse) => void;
const pages = new Map<string, Page>();
const requests: string[] = [];
/** Requests held open (the page that never answers), ended after each test. */
const held: ServerResponse[] = [];
let site: Awaited<ReturnType<typeof startHttpsServer>>;
let origin: string;

const html = (body: string, head = ''): Page => (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
};
const status = (code: number): Page => (_req, res) => res.writeHead(code, { 'content-type': 'text/html' }).end(`<h1>${code}</h1>`);
const redirect = (location: string, code = 301): Page => (_req, res) => res.writeHead(code, { location }).end();

let t: TestService;
let worker: JobWorker;
let workspaceId: string;
let otherWorkspaceId: string;

beforeAll(async () => {
  site = await startHttpsServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const page = pages.get(path);
    if (page === undefined) return status(404)(req, res);
    page(req, res);
  });
  origin = `https://127.0.0.1:${site.port}`;
  t = await TestService.start({ writer: false, outbound: { allowPrivateAddresses: true } });
  // The service's own services, with a linking page timeout short enough that the page that never answers ends the test quickly.
  const services = { ...t.service.services, backlinkVerification: { everyMs: WEEK_MS, pageTimeoutMs: 1000 } };
  worker = new JobWorker({ db: t.db, clock: t.clock, services, logger: pino({ level: 'silent' }), handlers: JOB_HANDLERS });
  workspaceId = (await t.workspace()).workspaceId;
  otherWorkspaceId = (await t.workspace({ name: 'Other Co', site: 'https://other.example' })).workspaceId;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await closeServer(site.server);
  await t.close();
});
beforeEach(async () => {
  // Links earlier tests left due would be checked again here: each test sees only its own.
  await t.db.deleteFrom('backlinks').execute();
  await t.db.deleteFrom('jobs').execute();
  pages.clear();
  requests.length = 0;
});

async function place(path: string, link: Partial<PlacedLink> = {}): Promise<string> {
  return t.db.transaction().execute((trx) =>
    recordPlacedLink(trx, t.clock, { workspaceId, linkingUrl: `${origin}${path}`, targetUrl: TARGET, anchorText: 'Acme', dofollow: true, source: 'managed', ...link }),
  );
}

const row = (id: string) => t.db.selectFrom('backlinks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The sweep, then every job it queued. */
async function verifyDue(): Promise<number> {
  const queued = await queueDueVerifications(t.db, t.clock);
  await worker.drain();
  return queued.links;
}

describe('backlink verification: what the page says', () => {
  it('a page that keeps the link verifies it, with the rel and anchor text the page has', async () => {
    pages.set('/keeps', html(`<p>See <a href="https://acme.example/pricing" rel="noopener">Acme   pricing\n plans</a>.</p>`));
    const id = await place('/keeps', { anchorText: 'what we asked for', dofollow: false });
    t.clock.advance(60_000);
    expect(await verifyDue()).toBe(1);
    const now = t.clock.now();
    expect(await row(id)).toMatchObject({
      status: 'verified',
      dofollow: 1,
      anchor_text: 'Acme pricing plans',
      last_verified_at: now,
      lost_at: null,
      status_changed_at: now,
      check_error: null,
      check_failures: 0,
      next_check_at: now + WEEK_MS,
    });
    expect(requests).toEqual(['/keeps']);

    // Not due again before the interval; the next check keeps the date the status last changed.
    expect(await verifyDue()).toBe(0);
    t.clock.advance(WEEK_MS);
    expect(await verifyDue()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'verified', last_verified_at: t.clock.now(), status_changed_at: now });
  });

  it.each([
    ['nofollow', `<a rel="nofollow" href="${TARGET}">Acme</a>`],
    ['sponsored', `<a rel="Sponsored noopener" href="${TARGET}">Acme</a>`],
    ['ugc', `<a rel="ugc" href="${TARGET}">Acme</a>`],
    ['robots meta nofollow', `<a href="${TARGET}">Acme</a>`, '<meta name="ROBOTS" content="noindex, nofollow">'],
  ])('a %s link is verified as not followed', async (_name, body, head = '') => {
    pages.set('/qualified', html(body, head));
    const id = await place('/qualified');
    await verifyDue();
    expect(await row(id)).toMatchObject({ status: 'verified', dofollow: 0, anchor_text: 'Acme' });
  });

  it('a followed link wins over a nofollow one to the same target; an image link reads its alt text', async () => {
    pages.set('/two', html(`<a rel="nofollow" href="${TARGET}">first</a><a href="${TARGET}"><img src="/logo.png" alt="Acme logo"></a>`));
    const id = await place('/two');
    await verifyDue();
    expect(await row(id)).toMatchObject({ status: 'verified', dofollow: 1, anchor_text: 'Acme logo' });
  });

  it('compares normalised: http and https, www., trailing slash and fragment aside, the query kept', async () => {
    pages.set('/variants', html(`<a href="http://www.acme.example/pricing/#plans">Acme</a>`));
    pages.set('/query', html(`<a href="https://acme.example/pricing?plan=pro">Acme</a>`));
    const same = await place('/variants');
    const otherQuery = await place('/query');
    await verifyDue();
    expect((await row(same)).status).toBe('verified');
    expect((await row(otherQuery)).status).toBe('lost');
  });

  it('resolves relative hrefs against the page URL, or its <base>', async () => {
    const target = `${origin}/docs/guide`;
    pages.set('/blog/post', html(`<a href="../docs/guide/">the guide</a>`));
    pages.set('/based', html(`<a href="pricing">plans</a>`, '<base href="https://www.acme.example/">'));
    const relative = await place('/blog/post', { targetUrl: target });
    const based = await place('/based');
    await verifyDue();
    expect(await row(relative)).toMatchObject({ status: 'verified', anchor_text: 'the guide' });
    expect(await row(based)).toMatchObject({ status: 'verified', anchor_text: 'plans' });
  });

  it('a page that dropped the link marks it lost and keeps the first lost date; the link back verifies it again', async () => {
    pages.set('/drops', html(`<a href="https://acme.example/">home, not the page placed</a>`));
    const id = await place('/drops');
    await verifyDue();
    const lostAt = t.clock.now();
    expect(await row(id)).toMatchObject({ status: 'lost', lost_at: lostAt, status_changed_at: lostAt, check_error: null, next_check_at: lostAt + WEEK_MS });

    t.clock.advance(WEEK_MS);
    await verifyDue();
    expect(await row(id)).toMatchObject({ status: 'lost', lost_at: lostAt, status_changed_at: lostAt });

    pages.set('/drops', html(`<a href="${TARGET}">Acme</a>`));
    t.clock.advance(WEEK_MS);
    await verifyDue();
    expect(await row(id)).toMatchObject({ status: 'verified', lost_at: null, status_changed_at: t.clock.now(), last_verified_at: t.clock.now() });
  });

  it.each([404, 410])('a page answering %i is lost at once', async (code) => {
    pages.set('/gone', status(code));
    const id = await place('/gone');
    await verifyDue();
    expect(await row(id)).toMatchObject({ status: 'lost', lost_at: t.clock.now(), check_error: null, check_failures: 0 });
  });

  it('follows redirects, hop by hop, and reads the page it ends on (relative hrefs against that page)', async () => {
    pages.set('/old', redirect('/moved', 301));
    pages.set('/moved', redirect(`${origin}/new/`, 308));
    pages.set('/new/', html(`<a href="../docs">docs</a>`));
    const id = await place('/old', { targetUrl: `${origin}/docs` });
    await verifyDue();
    expect(await row(id)).toMatchObject({ status: 'verified', anchor_text: 'docs' });
    expect(requests).toEqual(['/old', '/moved', '/new/']);
  });

  it('reads an http page as recorded, and follows a redirect from https to http (http-only sites verify)', async () => {
    const plain = createServer((req, res) => {
      requests.push(`http:${req.url ?? '/'}`);
      html(`<a href="${TARGET}">Acme</a>`)(req, res);
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const httpOrigin = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      pages.set('/to-http', redirect(`${httpOrigin}/post`));
      const direct = await t.db.transaction().execute((trx) =>
        recordPlacedLink(trx, t.clock, { workspaceId, linkingUrl: `${httpOrigin}/plain`, targetUrl: TARGET, anchorText: 'Acme', dofollow: true, source: 'managed' }),
      );
      const redirected = await place('/to-http');
      await verifyDue();
      expect([(await row(direct)).status, (await row(redirected)).status]).toEqual(['verified', 'verified']);
      expect([...requests].sort()).toEqual(['/to-http', 'http:/plain', 'http:/post']);
      // Every other caller of the fetcher stays on https.
      await expect(t.service.services.outbound.request(new URL(`${httpOrigin}/plain`))).rejects.toThrow(/only https URLs are requested/);
      expect(requests).toHaveLength(3);
    } finally {
      await closeServer(plain);
    }
  });

  it("reads the page in the encoding it declares", async () => {
    // "Мир" in windows-1251, which read as UTF-8 or as the default windows-1252 would be other letters.
    const cyrillic = Buffer.concat([Buffer.from(`<a href="${TARGET}">`), Buffer.from([0xcc, 0xe8, 0xf0]), Buffer.from('</a>')]);
    pages.set('/cp1251', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=windows-1251' }).end(cyrillic));
    const id = await place('/cp1251');
    await verifyDue();
    expect(await row(id)).toMatchObject({ status: 'verified', anchor_text: 'Мир' });
  });

  it('reads a page holding several placed links once', async () => {
    pages.set('/roundup', html(`<a href="${TARGET}">pricing</a><a href="https://acme.example/blog">blog</a>`));
    const pricing = await place('/roundup');
    const blog = await place('/roundup', { targetUrl: 'https://acme.example/blog' });
    const missing = await place('/roundup', { targetUrl: 'https://acme.example/careers' });
    await verifyDue();
    expect([(await row(pricing)).status, (await row(blog)).status, (await row(missing)).status]).toEqual(['verified', 'verified', 'lost']);
    expect(requests).toEqual(['/roundup']);
  });
});

describe('backlink verification: pages that do not answer', () => {
  it('a 500, a timeout or a refused redirect leave the status as it was, retry in a day, and only the third in a row counts as lost', async () => {
    pages.set('/broken', status(500));
    pages.set('/slow', (_req, res) => void held.push(res));
    pages.set('/to-ftp', redirect('ftp://acme-partner.example/post'));
    const ids = [await place('/broken'), await place('/slow'), await place('/to-ftp')];
    const reasons = [/answered 500/, /did not answer within 1 seconds/, /only http\(s\) URLs are requested/];

    for (const attempt of [1, 2]) {
      await verifyDue();
      for (const [i, id] of ids.entries()) {
        const checked = await row(id);
        expect(checked).toMatchObject({ status: 'placed', lost_at: null, check_failures: attempt, next_check_at: t.clock.now() + UNREADABLE_RETRY_MS });
        expect(checked.check_error).toMatch(reasons[i]!);
      }
      t.clock.advance(UNREADABLE_RETRY_MS);
    }
    await verifyDue();
    for (const id of ids) expect(await row(id)).toMatchObject({ status: 'lost', lost_at: t.clock.now(), check_failures: 3, next_check_at: t.clock.now() + WEEK_MS });
    expect((await row(ids[0]!)).check_error).toMatch(/answered 500/);
  });

  it('a page that answers again after one failure verifies the link and clears the failure', async () => {
    pages.set('/flaky', status(503));
    const id = await place('/flaky');
    await verifyDue();
    expect(await row(id)).toMatchObject({ status: 'placed', check_failures: 1 });
    pages.set('/flaky', html(`<a href="${TARGET}">Acme</a>`));
    t.clock.advance(UNREADABLE_RETRY_MS);
    await verifyDue();
    expect(await row(id)).toMatchObject({ status: 'verified', check_failures: 0, check_error: null });
  });
});

describe('backlink verification: which rows, claimed once', () => {
  async function insertIndexRow(path: string): Promise<string> {
    const now = t.clock.now();
    const row = backlinkRow(now, {
      workspace_id: workspaceId,
      linking_url: `${origin}${path}`,
      target_url: TARGET,
      anchor_text: 'from the index',
      domain_authority: 40,
      authority_metric: 'dataforseo_domain_rank',
      // Even if an index row were ever given a check time, verification leaves it alone.
      next_check_at: now - 1,
    });
    await t.db.insertInto('backlinks').values(row).execute();
    return row.id;
  }

  it('claims each due link once across two sweeps, in jobs per workspace of at most LINKS_PER_JOB links', async () => {
    pages.set('/p', html(`<a href="${TARGET}">Acme</a>`));
    for (let i = 0; i < LINKS_PER_JOB + 1; i++) await place('/p', { targetUrl: `${TARGET}?n=${i}` });
    await t.db.transaction().execute((trx) =>
      recordPlacedLink(trx, t.clock, { workspaceId: otherWorkspaceId, linkingUrl: `${origin}/p`, targetUrl: 'https://other.example/', anchorText: 'Other', dofollow: true, source: 'network', placementId: 'plc_1' }),
    );
    const first = await queueDueVerifications(t.db, t.clock);
    const second = await queueDueVerifications(t.db, t.clock);
    expect(first.links).toBe(LINKS_PER_JOB + 2);
    expect(second).toEqual({ links: 0, jobIds: [] });
    const jobs = await t.db.selectFrom('jobs').select(['workspace_id', 'kind', 'payload']).execute();
    expect(jobs.map((job) => [job.workspace_id, job.kind, (JSON.parse(job.payload) as { backlinkIds: string[] }).backlinkIds.length]).sort()).toEqual(
      [
        [otherWorkspaceId, 'backlink_verify', 1],
        [workspaceId, 'backlink_verify', 1],
        [workspaceId, 'backlink_verify', LINKS_PER_JOB],
      ].sort(),
    );
    const claimed = await t.db.selectFrom('backlinks').select('next_check_at').execute();
    expect(new Set(claimed.map((r) => r.next_check_at))).toEqual(new Set([t.clock.now() + CLAIM_MS]));
  });

  it('two sweeps at the same moment (two instances) share the due links without overlap', async () => {
    for (let i = 0; i < 40; i++) await place('/p', { targetUrl: `${TARGET}?n=${i}` });
    const both = await Promise.all([queueDueVerifications(t.db, t.clock, { limit: 30 }), queueDueVerifications(t.db, t.clock, { limit: 30 })]);
    const ids = await t.db.selectFrom('jobs').select('payload').execute();
    const claimedIds = ids.flatMap((job) => (JSON.parse(job.payload) as { backlinkIds: string[] }).backlinkIds);
    expect(both[0].links + both[1].links).toBe(40);
    expect(new Set(claimedIds).size).toBe(40);
    expect(claimedIds).toHaveLength(40);
  });

  it('never fetches index rows', async () => {
    pages.set('/indexed', html(`<a href="${TARGET}">Acme</a>`));
    const id = await insertIndexRow('/indexed');
    const before = await row(id);
    expect(await verifyDue()).toBe(0);
    expect(await makeKnownLinksDue(t.db, t.clock, workspaceId)).toBe(0);
    expect(await verifyDue()).toBe(0);
    expect(requests).toEqual([]);
    expect(await row(id)).toEqual(before);
  });

  it("a job touches only its workspace's links, and only while it holds them", async () => {
    pages.set('/p', html(`<a href="${TARGET}">Acme</a>`));
    const mine = await place('/p');
    const theirs = await t.db.transaction().execute((trx) =>
      recordPlacedLink(trx, t.clock, { workspaceId: otherWorkspaceId, linkingUrl: `${origin}/p`, targetUrl: TARGET, anchorText: 'Other', dofollow: true, source: 'managed' }),
    );
    const claimedUntil = t.clock.now() + CLAIM_MS;
    await t.db.updateTable('backlinks').set({ next_check_at: claimedUntil }).execute();
    const theirsBefore = await row(theirs);
    // A job of this workspace naming the other workspace's link (it could only come from a bug): that link is not its own.
    await t.db.transaction().execute((trx) => enqueueJob(trx, t.clock, { workspaceId, kind: 'backlink_verify', payload: { backlinkIds: [mine, theirs], claimedUntil } }));
    await worker.drain();
    expect((await row(mine)).status).toBe('verified');
    expect(await row(theirs)).toEqual(theirsBefore);

    // A job whose hold was taken over (the link was made due and claimed again) leaves the link to the newer claim.
    t.clock.advance(1000);
    await makeKnownLinksDue(t.db, t.clock, otherWorkspaceId);
    expect((await queueDueVerifications(t.db, t.clock)).links).toBe(1);
    await t.db.transaction().execute((trx) => enqueueJob(trx, t.clock, { workspaceId: otherWorkspaceId, kind: 'backlink_verify', payload: { backlinkIds: [theirs], claimedUntil } }));
    requests.length = 0;
    await worker.drain();
    expect(requests).toEqual(['/p']);
    expect(await row(theirs)).toMatchObject({ status: 'verified', last_verified_at: t.clock.now() });
  });

  it('making one workspace due leaves the others as they are', async () => {
    pages.set('/p', html(`<a href="${TARGET}">Acme</a>`));
    await place('/p');
    await t.db.transaction().execute((trx) =>
      recordPlacedLink(trx, t.clock, { workspaceId: otherWorkspaceId, linkingUrl: `${origin}/p`, targetUrl: TARGET, anchorText: 'Other', dofollow: true, source: 'managed' }),
    );
    await verifyDue();
    const other = await t.db.selectFrom('backlinks').selectAll().where('workspace_id', '=', otherWorkspaceId).executeTakeFirstOrThrow();
    t.clock.advance(DAY_MS);
    expect(await makeKnownLinksDue(t.db, t.clock, workspaceId)).toBe(1);
    const queued = await queueDueVerifications(t.db, t.clock);
    expect(queued.links).toBe(1);
    await worker.drain();
    expect(await t.db.selectFrom('backlinks').selectAll().where('workspace_id', '=', otherWorkspaceId).executeTakeFirstOrThrow()).toEqual(other);
  });
});

describe('backlink verification: in the service', () => {
  it("the service's worker claims due links on its sweep and verifies them", async () => {
    pages.set('/p', html(`<a href="${TARGET}">Acme</a>`));
    const id = await place('/p');
    await t.jobs.drain();
    expect(await row(id)).toMatchObject({ status: 'verified', last_verified_at: t.clock.now() });
    const jobs = await t.db.selectFrom('jobs').select(['kind', 'state', 'result']).where('workspace_id', '=', workspaceId).execute();
    expect(jobs.map((job) => ({ ...job, result: JSON.parse(job.result ?? 'null') as unknown }))).toEqual([
      { kind: 'backlink_verify', state: 'done', result: { checked: 1, verified: 1, lost: 0, unreadable: 0 } },
    ]);
  });
});

describe('backlink verification: the backlink.lost change', () => {
  const lostChanges = () => t.db.selectFrom('changes').selectAll().where('workspace_id', '=', workspaceId).where('kind', '=', 'backlink.lost').orderBy('detected_at').execute();
  beforeEach(async () => {
    await t.db.deleteFrom('changes').execute();
  });

  it('is recorded once when a link placed through outreach turns lost, and again only after it was found and lost anew', async () => {
    pages.set('/outreach-drops', html(`<a href="https://acme.example/">home, not the page placed</a>`));
    const id = await place('/outreach-drops', { source: 'outreach' });
    await verifyDue();
    t.clock.advance(WEEK_MS);
    await verifyDue();
    const [first, ...more] = await lostChanges();
    expect(more).toEqual([]);
    expect(first!.title).toBe(`Link from ${origin}/outreach-drops to ${TARGET} is lost: the page no longer links to the site`);
    expect(JSON.parse(first!.details)).toMatchObject({ backlinkId: id, source: 'outreach', linkingUrl: `${origin}/outreach-drops`, targetUrl: TARGET });

    pages.set('/outreach-drops', html(`<a href="${TARGET}">Acme</a>`));
    t.clock.advance(WEEK_MS);
    await verifyDue();
    expect(await lostChanges()).toHaveLength(1);
    pages.set('/outreach-drops', status(410));
    t.clock.advance(WEEK_MS);
    await verifyDue();
    expect(await lostChanges()).toHaveLength(2);
  });

  it('names the unreadable page when a network link is lost after three failed reads', async () => {
    pages.set('/network-down', status(500));
    await place('/network-down', { source: 'network' });
    for (let attempt = 1; attempt <= 3; attempt++) {
      await verifyDue();
      expect(await lostChanges()).toHaveLength(attempt === 3 ? 1 : 0);
      t.clock.advance(UNREADABLE_RETRY_MS);
    }
    expect((await lostChanges())[0]!.title).toBe(`Link from ${origin}/network-down to ${TARGET} is lost: the page could not be read 3 times in a row (${origin}/network-down answered 500)`);
  });

  it('is not recorded for a link the workspace tracks by hand, nor for a link still on its page', async () => {
    pages.set('/managed-drops', html('<p>nothing</p>'));
    pages.set('/outreach-keeps', html(`<a href="${TARGET}">Acme</a>`));
    await place('/managed-drops');
    await place('/outreach-keeps', { source: 'outreach' });
    await verifyDue();
    expect(await lostChanges()).toEqual([]);
  });
});
