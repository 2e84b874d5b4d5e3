import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { downloadRelease } from '../../src/backlinks/commoncrawl/download.js';
import { loadCommonCrawlRelease } from '../../src/backlinks/commoncrawl/load.js';
import { releaseFileName, releaseFilesIn } from '../../src/backlinks/commoncrawl/release.js';
import { backlinkStats } from '../../src/backlinks/stats.js';
import { ManualClock } from '../../src/clock.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { OperatorError } from '../../src/operator.js';
import { openTestDatabase } from '../support/database.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import { runEntry } from '../support/processes.js';

/*
 * The fixture release (fixtures/commoncrawl, the real file names and formats) is a graph of twenty domains. Links to
 * acme.com: technews.com, devblog.net, partner.org, googlefan.com, notarchive.org and archive-org.net (editorial), and
 * from google.com, google.de, googleusercontent.com, bing.com, translate.goog, archive.org, archive.ph and acme.com
 * itself (left out). To rival.io: technews.com and forum.io, and from yandex.ru and duckduckgo.com. To zenith.co.uk:
 * review.co.uk and partner.org, and from archive.org. The ranks file ranks some of them by harmonic centrality.
 */
const FIXTURES = new URL('./fixtures/commoncrawl/', import.meta.url).pathname;
const RELEASE = 'cc-main-2026-jun-jul-aug';
const START = Date.parse('2026-09-01T00:00:00Z');

interface Row {
  target_domain: string;
  referring_domain: string;
  rank: number | null;
}

describe('Common Crawl web graph releases', () => {
  let handle: DatabaseHandle;
  const clock = new ManualClock(START);
  let acme: string;
  let zenith: string;
  let unseen: string;
  const scratch = mkdtempSync(join(tmpdir(), 'sightline-cc-'));

  async function addCompetitor(workspaceId: string, domain: string, removed = false): Promise<void> {
    await handle.db
      .insertInto('competitors')
      .values({
        id: `cmp_${Math.random().toString(36).slice(2, 10)}`,
        workspace_id: workspaceId,
        name: domain,
        website_url: `https://${domain}`,
        domain,
        aliases: '[]',
        positioning: null,
        created_at: clock.now(),
        removed_at: removed ? clock.now() : null,
      })
      .execute();
  }

  async function referrers(workspaceId: string): Promise<Row[]> {
    return handle.db
      .selectFrom('referring_domains')
      .select(['target_domain', 'referring_domain', 'rank'])
      .where('workspace_id', '=', workspaceId)
      .where('provider', '=', 'commoncrawl')
      .orderBy('target_domain')
      .orderBy('referring_domain')
      .execute();
  }

  const names = (rows: Row[], target: string) => rows.filter((row) => row.target_domain === target).map((row) => row.referring_domain);

  beforeAll(async () => {
    handle = await openTestDatabase();
    await migrateToLatest(handle);
    acme = await createWorkspace(handle.db, clock, { name: 'Acme', websiteUrl: 'https://www.acme.com/' });
    zenith = await createWorkspace(handle.db, clock, { name: 'Zenith', websiteUrl: 'https://shop.zenith.co.uk/' });
    unseen = await createWorkspace(handle.db, clock, { name: 'Unseen', websiteUrl: 'https://unseen.dev' });
    await addCompetitor(acme, 'rival.io');
    await addCompetitor(acme, 'technews.com', true);
    // Zenith competes with Acme: acme.com's referrers are stored for Zenith too, as a competitor's.
    await addCompetitor(zenith, 'acme.com');
  });
  afterAll(async () => {
    await handle.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('stores the referring domains of each site and its competitors, without search engines, archives, caches and proxies', async () => {
    const summary = await loadCommonCrawlRelease(handle.db, clock, { release: RELEASE, files: releaseFilesIn(FIXTURES, RELEASE, false) });

    expect(summary).toMatchObject({ release: RELEASE, ranked: false });
    const byId = new Map(summary.workspaces.map((w) => [w.workspaceId, w]));
    expect(byId.get(acme)).toMatchObject({
      site: { domain: 'acme.com', inGraph: true, referringDomains: 6, stored: 6 },
      // The removed competitor is not looked up.
      competitors: [{ domain: 'rival.io', inGraph: true, referringDomains: 2, stored: 2 }],
    });
    expect(byId.get(zenith)).toMatchObject({
      site: { domain: 'zenith.co.uk', inGraph: true, referringDomains: 2 },
      competitors: [{ domain: 'acme.com', referringDomains: 6 }],
    });
    expect(byId.get(unseen)).toMatchObject({ site: { domain: 'unseen.dev', inGraph: false, referringDomains: 0, stored: 0 }, competitors: [] });

    const acmeRows = await referrers(acme);
    expect(names(acmeRows, 'acme.com')).toEqual(['archive-org.net', 'devblog.net', 'googlefan.com', 'notarchive.org', 'partner.org', 'technews.com']);
    expect(names(acmeRows, 'rival.io')).toEqual(['forum.io', 'technews.com']);
    expect(acmeRows.every((row) => row.rank === null)).toBe(true);
    const zenithRows = await referrers(zenith);
    expect(names(zenithRows, 'zenith.co.uk')).toEqual(['partner.org', 'review.co.uk']);
    expect(names(zenithRows, 'acme.com')).toEqual(names(acmeRows, 'acme.com'));
    expect(await referrers(unseen)).toEqual([]);

    const stored = await handle.db.selectFrom('referring_domains').selectAll().where('workspace_id', '=', acme).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ provider: 'commoncrawl', links: null, measured_at: START });

    const measures = await handle.db.selectFrom('backlink_measures').selectAll().where('provider', '=', 'commoncrawl').execute();
    const measureOf = (workspaceId: string) => measures.find((m) => m.workspace_id === workspaceId)!;
    expect(measures).toHaveLength(3);
    expect([acme, zenith, unseen].map((id) => [measureOf(id).referring_domains, measureOf(id).indexed_backlinks, measureOf(id).measured_at])).toEqual([
      [6, null, START],
      [2, null, START],
      // A site the release does not have is not measured: no count, rather than a count of 0.
      [null, null, START],
    ]);
    expect(JSON.parse(measureOf(acme).detail!)).toEqual({ release: RELEASE, domain: 'acme.com', inGraph: true });
    expect(JSON.parse(measureOf(unseen).detail!)).toEqual({ release: RELEASE, domain: 'unseen.dev', inGraph: false });
    // get_backlink_stats reads the count, named by its source.
    expect(await backlinkStats(handle.db, acme)).toMatchObject({ referringDomains: 6, referringDomainsSource: 'commoncrawl' });
    expect(await backlinkStats(handle.db, unseen)).not.toHaveProperty('referringDomains');
  });

  it('keeps the referring domains with the most hosts, or with the ranks file the best ranked by harmonic centrality', async () => {
    clock.set(START + 500);
    await loadCommonCrawlRelease(handle.db, clock, { release: RELEASE, files: releaseFilesIn(FIXTURES, RELEASE, false), keepPerTarget: 2 });
    expect(names(await referrers(acme), 'acme.com')).toEqual(['partner.org', 'technews.com']);

    clock.set(START + 1000);
    const summary = await loadCommonCrawlRelease(handle.db, clock, { release: RELEASE, files: releaseFilesIn(FIXTURES, RELEASE, true), keepPerTarget: 3 });
    expect(summary.ranked).toBe(true);
    expect(summary.workspaces.find((w) => w.workspaceId === acme)?.site).toEqual({ domain: 'acme.com', inGraph: true, referringDomains: 6, stored: 3 });
    const rows = (await referrers(acme)).filter((row) => row.target_domain === 'acme.com');
    expect(rows.map((row) => [row.referring_domain, row.rank])).toEqual([
      ['devblog.net', 5],
      ['partner.org', 3],
      ['technews.com', 2],
    ]);
  });

  it('a later release replaces the previous rows of every target, and a removed competitor loses its rows', async () => {
    // The next release: acme.com keeps only partner.org (and gains a Google link, left out); rival.io is not a competitor any more.
    const next = 'cc-main-2026-jul-aug-sep';
    const dir = join(scratch, next);
    const vertices = ['0\tcom.acme\t1', '1\tcom.google\t1', '2\tio.rival\t1', '3\torg.partner\t12', '4\tuk.co.zenith\t1'];
    const edges = ['1\t0', '3\t0', '3\t2'];
    writeGz(dir, next, 'vertices', vertices);
    writeGz(dir, next, 'edges', edges);
    await handle.db.updateTable('competitors').set({ removed_at: clock.now() }).where('workspace_id', '=', acme).execute();
    clock.set(START + 2000);

    const summary = await loadCommonCrawlRelease(handle.db, clock, { release: next, files: releaseFilesIn(dir, next, false) });
    expect(summary.workspaces.find((w) => w.workspaceId === zenith)).toMatchObject({ site: { referringDomains: 0, inGraph: true }, competitors: [{ referringDomains: 1 }] });
    expect(await referrers(acme)).toEqual([{ target_domain: 'acme.com', referring_domain: 'partner.org', rank: null }]);
    expect(await referrers(zenith)).toEqual([{ target_domain: 'acme.com', referring_domain: 'partner.org', rank: null }]);
    const latest = await handle.db
      .selectFrom('backlink_measures')
      .select(['referring_domains', 'detail'])
      .where('workspace_id', '=', acme)
      .where('measured_at', '=', START + 2000)
      .executeTakeFirstOrThrow();
    expect(latest.referring_domains).toBe(1);
    expect(JSON.parse(latest.detail!)).toMatchObject({ release: next });
  });

  it('a missing file or a malformed release name is a clear error that changes nothing', async () => {
    const before = await handle.db.selectFrom('referring_domains').selectAll().orderBy('workspace_id').orderBy('target_domain').orderBy('referring_domain').execute();
    const empty = join(scratch, 'empty');
    const missing = loadCommonCrawlRelease(handle.db, clock, { release: RELEASE, files: releaseFilesIn(empty, RELEASE, false) });
    await expect(missing).rejects.toThrow(OperatorError);
    await expect(missing).rejects.toThrow(`${join(empty, releaseFileName(RELEASE, 'vertices'))} is missing or unreadable: download the release with --download`);
    const noRanks = loadCommonCrawlRelease(handle.db, clock, { release: RELEASE, files: { ...releaseFilesIn(FIXTURES, RELEASE, false), ranks: join(empty, 'ranks.txt.gz') } });
    await expect(noRanks).rejects.toThrow(/ranks\.txt\.gz is missing/);
    await expect(loadCommonCrawlRelease(handle.db, clock, { release: '2026-06', files: releaseFilesIn(FIXTURES, RELEASE, false) })).rejects.toThrow(
      /not a Common Crawl web graph release name/,
    );
    const after = await handle.db.selectFrom('referring_domains').selectAll().orderBy('workspace_id').orderBy('target_domain').orderBy('referring_domain').execute();
    expect(after).toEqual(before);
  });
});

function writeGz(dir: string, release: string, kind: 'vertices' | 'edges', lines: string[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, releaseFileName(release, kind)), gzipSync(`${lines.join('\n')}\n`));
}

describe('downloading a release', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'sightline-cc-download-'));
  const requests: Array<{ path: string; range: string | undefined }> = [];
  /** How the server answers: whole files with Range support, Range ignored, or the connection cut halfway once. */
  let mode: 'ranges' | 'ignore-range' | 'cut-once' = 'ranges';
  let held: ServerResponse | undefined;
  let server: Awaited<ReturnType<typeof startHttpsServer>>;
  let baseUrl: string;

  function serve(req: IncomingMessage, res: ServerResponse): void {
    requests.push({ path: req.url ?? '', range: req.headers.range });
    const match = /^\/projects\/hyperlinkgraph\/[^/]+\/domain\/([^/]+)$/.exec(req.url ?? '');
    const file = match ? join(FIXTURES, match[1]!) : '';
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      res.writeHead(404).end('not found');
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (mode === 'cut-once') {
      mode = 'ranges';
      res.writeHead(200, { 'content-length': body.length });
      res.write(body.subarray(0, 40));
      // The test cuts the connection once the first bytes are on the client's disk.
      held = res;
      return;
    }
    if (range && mode === 'ranges') {
      const from = Number(range[1]);
      if (from >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      res.writeHead(206, { 'content-length': body.length - from, 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` }).end(body.subarray(from));
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  }

  beforeAll(async () => {
    server = await startHttpsServer(serve);
    baseUrl = `https://127.0.0.1:${server.port}/projects/hyperlinkgraph`;
  });
  afterAll(async () => {
    await closeServer(server.server);
    rmSync(scratch, { recursive: true, force: true });
  });

  const fixture = (kind: 'vertices' | 'edges' | 'ranks') => readFileSync(join(FIXTURES, releaseFileName(RELEASE, kind)));

  it('streams each file of the release from Common Crawl’s layout, and does not fetch a complete file again', async () => {
    const dir = join(scratch, 'whole');
    const files = releaseFilesIn(dir, RELEASE, true);
    requests.length = 0;
    await downloadRelease(baseUrl, RELEASE, files);
    expect(requests.map((r) => r.path)).toEqual(['vertices', 'edges', 'ranks'].map((kind) => `/projects/hyperlinkgraph/${RELEASE}/domain/${RELEASE}-domain-${kind}.txt.gz`));
    expect(readFileSync(files.vertices)).toEqual(fixture('vertices'));
    expect(readFileSync(files.edges)).toEqual(fixture('edges'));
    expect(readFileSync(files.ranks!)).toEqual(fixture('ranks'));

    requests.length = 0;
    const present: boolean[] = [];
    await downloadRelease(baseUrl, RELEASE, files, { onFile: (_url, outcome) => present.push(outcome.present) });
    expect(requests).toEqual([]);
    expect(present).toEqual([true, true, true]);
  });

  it('resumes an interrupted download from what arrived, and starts over when the server ignores the range', async () => {
    const dir = join(scratch, 'resume');
    const files = releaseFilesIn(dir, RELEASE, false);
    mode = 'cut-once';
    requests.length = 0;
    const cut = downloadRelease(baseUrl, RELEASE, files);
    await vi.waitFor(() => expect(statSync(`${files.vertices}.partial`).size).toBe(40));
    held!.destroy();
    await expect(cut).rejects.toThrow(/the download stopped .*run the command again to resume/);
    expect(() => readFileSync(files.vertices)).toThrow();
    expect(readFileSync(`${files.vertices}.partial`)).toEqual(fixture('vertices').subarray(0, 40));

    const progress: Array<[number, number | undefined]> = [];
    await downloadRelease(baseUrl, RELEASE, files, { onProgress: (url, bytes, total) => url.pathname.endsWith('vertices.txt.gz') && progress.push([bytes, total]) });
    expect(requests.slice(1).map((r) => r.range)).toEqual(['bytes=40-', undefined]);
    // Progress counts the whole file, the 40 bytes kept from before included.
    expect(progress.at(-1)).toEqual([fixture('vertices').length, fixture('vertices').length]);
    expect(readFileSync(files.vertices)).toEqual(fixture('vertices'));
    expect(readFileSync(files.edges)).toEqual(fixture('edges'));

    // Everything arrived last time, but the file was not renamed: the server's 416 says so, and nothing is fetched again.
    const whole = releaseFilesIn(join(scratch, 'complete-partial'), RELEASE, false);
    mkdirSync(join(scratch, 'complete-partial'));
    writeFileSync(`${whole.vertices}.partial`, fixture('vertices'));
    writeFileSync(whole.edges, fixture('edges'));
    await downloadRelease(baseUrl, RELEASE, whole);
    expect(readFileSync(whole.vertices)).toEqual(fixture('vertices'));

    const again = join(scratch, 'ignored');
    const other = releaseFilesIn(again, RELEASE, false);
    mkdirSync(again, { recursive: true });
    writeFileSync(`${other.vertices}.partial`, 'stale bytes');
    mode = 'ignore-range';
    await downloadRelease(baseUrl, RELEASE, other);
    mode = 'ranges';
    expect(readFileSync(other.vertices)).toEqual(fixture('vertices'));
  });

  it('refuses plain http and reports a release the server does not have', async () => {
    const files = releaseFilesIn(join(scratch, 'refused'), RELEASE, false);
    await expect(downloadRelease(baseUrl.replace('https:', 'http:'), RELEASE, files)).rejects.toThrow(/only https downloads are made/);
    const unknown = 'cc-main-2019-jan-feb-mar';
    const missing = downloadRelease(baseUrl, unknown, releaseFilesIn(join(scratch, 'unknown'), unknown, false));
    await expect(missing).rejects.toThrow(OperatorError);
    await expect(missing).rejects.toThrow(/answered 404 \(is the release name right\?\)/);
  });

  it('`sightline admin commoncrawl load --download` downloads the release and prints a summary per workspace', async () => {
    const env = { DATABASE_URL: `file:${join(scratch, 'cli.db')}` };
    const admin = (...args: string[]) => runEntry('src/cli/main.ts', ['admin', ...args], env);
    const created = await admin('create-workspace', '--name', 'Acme', '--site', 'https://acme.com', '--json');
    expect(created.code, created.stderr).toBe(0);
    const { workspaceId } = JSON.parse(created.stdout) as { workspaceId: string };

    const dir = join(scratch, 'cli-release');
    const loaded = await admin('commoncrawl', 'load', RELEASE, '--download', '--base-url', baseUrl, '--dir', dir);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout).toBe(`release ${RELEASE} loaded for 1 workspace(s)\n${workspaceId} (Acme): acme.com 6 referring domains\n`);
    expect(readFileSync(join(dir, releaseFileName(RELEASE, 'edges')))).toEqual(fixture('edges'));

    const missing = await admin('commoncrawl', 'load', RELEASE, '--dir', join(scratch, 'nothing-here'));
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain(`${join(scratch, 'nothing-here', releaseFileName(RELEASE, 'vertices'))} is missing or unreadable`);
    const badName = await admin('commoncrawl', 'load', 'latest', '--json');
    expect(badName.code).not.toBe(0);
    expect(badName.stderr).toContain('latest is not a Common Crawl web graph release name');
    // Four CLI processes, each starting Node with tsx.
  }, 120_000);
});
