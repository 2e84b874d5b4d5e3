import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBacklinkIndex, dataForSeoTime } from '../../src/integrations/dataforseo/backlinkIndex.js';
import type { BacklinkIndex } from '../../src/backlinks/index/provider.js';
import { BACKLINK_INDEX_SETTINGS, loadConfig } from '../../src/config.js';
import { MemoryLimiterStore } from '../../src/limits/memoryStore.js';
import { paceRule } from '../../src/limits/providerLimits.js';
import type { EngineTuning } from '../../src/visibility/engines/providerHttp.js';
import { TransientEngineError } from '../../src/visibility/engines/providerHttp.js';
import { failure } from '../visibility/engines/support.js';
import { FakeDataForSeoBacklinks, type FakeBacklink } from '../integrations/fakes/dataforseo/backlinks.js';

const TUNING: EngineTuning = { timeoutMs: 2000, retries: 2, backoffMs: 5, concurrency: 3 };

let fake: FakeDataForSeoBacklinks;
let index: BacklinkIndex;

beforeAll(async () => {
  fake = await FakeDataForSeoBacklinks.start();
  const settings = { baseUrl: fake.baseUrl, login: fake.login, password: fake.password, perMinute: 2000, sharesSerpAccount: false, maxRows: 1000 };
  index = createBacklinkIndex(settings, TUNING, new MemoryLimiterStore())!;
});
afterAll(async () => {
  await index.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const links = (n: number): FakeBacklink[] =>
  Array.from({ length: n }, (_, i) => ({ urlFrom: `https://blog${i}.example/post`, urlTo: 'https://acme.example/', domainFromRank: 900 - i }));

describe('the DataForSEO backlink index client', () => {
  it('asks backlinks/live for the domain with Basic auth, live and lost links, best-ranked domains first, and reads each item', async () => {
    fake.setBacklinks('acme.example', [
      { urlFrom: 'https://www.news.example/story', urlTo: 'https://acme.example/pricing', anchor: ' Acme pricing ', dofollow: true, domainFromRank: 512, firstSeen: '2025-02-03 04:05:06 +00:00' },
      { urlFrom: 'https://forum.example/t/1', urlTo: 'https://acme.example/', anchor: 'acme', dofollow: false, domainFromRank: 120 },
      { urlFrom: 'https://gone.example/old', urlTo: 'https://acme.example/', isLost: true, lastSeen: '2026-10-20 12:00:00 +00:00', domainFromRank: 300 },
      { urlFrom: 'https://img.example/gallery', urlTo: 'https://acme.example/', itemType: 'image', domainFromRank: 80, isBroken: true },
    ]);
    const page = await index.backlinks('acme.example', 100);
    const [request] = fake.requestsTo('backlinks');
    expect(request!.authorization).toBe(`Basic ${Buffer.from(`${fake.login}:${fake.password}`).toString('base64')}`);
    expect(request!.task).toEqual({
      target: 'acme.example',
      mode: 'as_is',
      limit: 100,
      backlinks_status_type: 'all',
      include_subdomains: true,
      exclude_internal_backlinks: true,
      order_by: ['domain_from_rank,desc'],
    });
    expect(page.totalCount).toBe(4);
    expect(page.nextPage).toBeUndefined();
    expect(page.links).toEqual([
      {
        linkingUrl: 'https://www.news.example/story',
        linkingDomain: 'news.example',
        targetUrl: 'https://acme.example/pricing',
        anchorText: 'Acme pricing',
        dofollow: true,
        domainRank: 512,
        firstSeenAt: Date.parse('2025-02-03T04:05:06Z'),
        lost: false,
        lostAt: null,
        broken: false,
      },
      expect.objectContaining({ linkingUrl: 'https://gone.example/old', lost: true, lostAt: Date.parse('2026-10-20T12:00:00Z'), domainRank: 300 }),
      expect.objectContaining({ linkingUrl: 'https://forum.example/t/1', dofollow: false, anchorText: 'acme' }),
      expect.objectContaining({ linkingUrl: 'https://img.example/gallery', anchorText: 'Acme logo', broken: true }),
    ]);
  });

  it('pages deep with search_after_token, repeating the request exactly, until a short page', async () => {
    fake.setBacklinks('acme.example', links(5));
    const first = await index.backlinks('acme.example', 2);
    expect(first.links.map((l) => l.linkingDomain)).toEqual(['blog0.example', 'blog1.example']);
    expect(first.nextPage).toEqual(expect.any(String));
    const second = await index.backlinks('acme.example', 2, first.nextPage);
    const third = await index.backlinks('acme.example', 2, second.nextPage);
    expect([...second.links, ...third.links].map((l) => l.linkingDomain)).toEqual(['blog2.example', 'blog3.example', 'blog4.example']);
    expect(third.nextPage).toBeUndefined();
    const [firstRequest, secondRequest] = fake.requestsTo('backlinks');
    expect(secondRequest!.task).toEqual({ ...firstRequest!.task, search_after_token: expect.any(String) });
  });

  it('asks a shorter following page by offset (a token needs the same limit), and past offset 20,000 repeats the token request', async () => {
    fake.setBacklinks('acme.example', links(7));
    const first = await index.backlinks('acme.example', 3);
    const shorter = await index.backlinks('acme.example', 2, first.nextPage);
    expect(shorter.links.map((l) => l.linkingDomain)).toEqual(['blog3.example', 'blog4.example']);
    const [firstRequest, shorterRequest] = fake.requestsTo('backlinks');
    const { limit: _limit, ...rest } = firstRequest!.task;
    expect(shorterRequest!.task).toEqual({ ...rest, limit: 2, offset: 3 });
    // The page after an offset page repeats that request, offset included, with its token.
    const last = await index.backlinks('acme.example', 2, shorter.nextPage);
    expect(last.links.map((l) => l.linkingDomain)).toEqual(['blog5.example', 'blog6.example']);
    expect(fake.requestsTo('backlinks')[2]!.task).toEqual({ ...shorterRequest!.task, search_after_token: expect.any(String) });

    // Deeper than DataForSEO's largest offset, a shorter page is the token's own request, answering its full page.
    const deep = Buffer.from(JSON.stringify({ token: 'tok', limit: 3, position: 20_001 })).toString('base64url');
    await failure(index.backlinks('acme.example', 2, deep));
    expect(fake.requestsTo('backlinks')[3]!.task).toEqual({ ...firstRequest!.task, search_after_token: 'tok' });
  });

  it('surfaces a task error (a token used twice) without retrying it', async () => {
    fake.setBacklinks('acme.example', links(4));
    const first = await index.backlinks('acme.example', 2);
    await index.backlinks('acme.example', 2, first.nextPage);
    const error = await failure(index.backlinks('acme.example', 2, first.nextPage));
    expect(error).not.toBeInstanceOf(TransientEngineError);
    expect(error.errorClass).toBe('provider_error');
    expect(error.message).toBe("DataForSEO status 40501: Invalid Field: 'search_after_token'.");
    expect(fake.requestsTo('backlinks')).toHaveLength(3);
  });

  it('retries the per-minute rate limit (40202 inside HTTP 200) and then answers', async () => {
    fake.setSummary('acme.example', { backlinks: 1500, referringDomains: 210, referringMainDomains: 190, nofollow: 300, broken: 12 });
    fake.failNext('summary', { requestError: { code: 40202, message: 'Rate-limit per minute exceeded.' } });
    const summary = await index.summary('acme.example');
    expect(summary).toEqual({ backlinks: 1500, referringDomains: 210, referringMainDomains: 190, nofollowBacklinks: 300, brokenBacklinks: 12 });
    expect(fake.requestsTo('summary')).toHaveLength(2);
    expect(fake.requestsTo('summary')[1]!.task).toEqual({ target: 'acme.example', include_subdomains: true, exclude_internal_backlinks: true, backlinks_status_type: 'live' });
  });

  it('gives up on a rate limit that persists as a transient rate_limited error (a job may try again later)', async () => {
    const limited = { requestError: { code: 40202, message: 'Rate-limit per minute exceeded.' } };
    fake.failNext('summary', limited, limited, limited);
    const error = await failure(index.summary('acme.example'));
    expect(error).toBeInstanceOf(TransientEngineError);
    expect(error.errorClass).toBe('rate_limited');
    expect(error.message).toBe('DataForSEO status 40202: Rate-limit per minute exceeded. (after 3 attempts)');
  });

  it('surfaces a task-level error at once, and refused credentials', async () => {
    fake.failNext('summary', { taskError: { code: 40204, message: 'Access denied. Visit Plans and Subscriptions to activate your subscription and get access to this API.' } });
    const denied = await failure(index.summary('acme.example'));
    expect(denied.message).toBe('DataForSEO status 40204: Access denied. Visit Plans and Subscriptions to activate your subscription and get access to this API.');
    expect(fake.requestsTo('summary')).toHaveLength(1);

    const settings = { baseUrl: fake.baseUrl, login: fake.login, password: 'wrong', perMinute: 2000, sharesSerpAccount: false, maxRows: 10 };
    const wrong = createBacklinkIndex(settings, TUNING, new MemoryLimiterStore())!;
    try {
      const refused = await failure(wrong.summary('acme.example'));
      expect(refused.message).toMatch(/^DataForSEO answered 401: .*You are not authorized to access this resource/);
      expect(refused).not.toBeInstanceOf(TransientEngineError);
    } finally {
      await wrong.close();
    }
  });

  it('lists referring domains, highest rank first, at most the limit, www. dropped', async () => {
    fake.setReferringDomains('rival.example', [
      { domain: 'small.example', backlinks: 2, rank: 10 },
      { domain: 'www.big.example', backlinks: 40, rank: 700 },
      { domain: 'mid.example', backlinks: 9, rank: 300 },
    ]);
    expect(await index.referringDomains('rival.example', 2)).toEqual([
      { domain: 'big.example', links: 40, rank: 700 },
      { domain: 'mid.example', links: 9, rank: 300 },
    ]);
    expect(fake.requestsTo('referring_domains')[0]!.task).toEqual({ target: 'rival.example', limit: 2, include_subdomains: true, exclude_internal_backlinks: true, order_by: ['rank,desc'] });
  });

  it("counts its calls against the SERP provider's allowance when it uses that account, and against its own otherwise", async () => {
    fake.setSummary('acme.example', { backlinks: 1, referringDomains: 1 });
    const callsLeft = async (shared: boolean) => {
      const store = new MemoryLimiterStore();
      const settings = { baseUrl: fake.baseUrl, login: fake.login, password: fake.password, perMinute: 5, sharesSerpAccount: shared, maxRows: 10 };
      const own = createBacklinkIndex(settings, TUNING, store)!;
      try {
        await own.summary('acme.example');
        // A minute's window of 5 calls: what the SERP client would have left after one more call.
        return (await store.limiter(paceRule('serp', 5)).consume('serp')).remaining;
      } finally {
        await own.close();
      }
    };
    expect(await callsLeft(true)).toBe(3);
    expect(await callsLeft(false)).toBe(4);
  });

  it("reads DataForSEO's time format", () => {
    expect(dataForSeoTime('2019-11-15 12:57:46 +00:00')).toBe(Date.parse('2019-11-15T12:57:46Z'));
    expect(dataForSeoTime('2019-11-15 12:57:46 +02:00')).toBe(Date.parse('2019-11-15T10:57:46Z'));
    expect(dataForSeoTime(null)).toBeNull();
    expect(dataForSeoTime('not a date')).toBeNull();
  });
});

describe('the backlink index settings', () => {
  it('takes BACKLINKS_* (all three), else the SERP provider account with its limits; BACKLINKS_MAX_ROWS bounds a sync', () => {
    const own = { BACKLINKS_BASE_URL: 'https://api.dataforseo.com/', BACKLINKS_LOGIN: 'me', BACKLINKS_PASSWORD: 'pw', BACKLINKS_RPM: '600', BACKLINKS_MAX_ROWS: '5000' };
    expect(loadConfig(own).backlinkIndex).toEqual({ baseUrl: 'https://api.dataforseo.com', login: 'me', password: 'pw', perMinute: 600, sharesSerpAccount: false, maxRows: 5000 });
    const serp = { SERP_BASE_URL: 'https://sandbox.dataforseo.com', SERP_LOGIN: 'serp', SERP_PASSWORD: 'spw', SERP_RPM: '100', BACKLINKS_RPM: '600' };
    expect(loadConfig(serp).backlinkIndex).toEqual({ baseUrl: 'https://sandbox.dataforseo.com', login: 'serp', password: 'spw', perMinute: 100, sharesSerpAccount: true, maxRows: 1000 });
    expect(loadConfig({ ...serp, ...own }).backlinkIndex).toMatchObject({ login: 'me', sharesSerpAccount: false });
    expect(loadConfig({}).backlinkIndex).toBeUndefined();
    expect(() => loadConfig({ BACKLINKS_LOGIN: 'me' })).toThrow(/^BACKLINKS_BASE_URL, BACKLINKS_LOGIN and BACKLINKS_PASSWORD: set all three, or none/);
    expect(() => loadConfig({ BACKLINKS_MAX_ROWS: '0' })).toThrow(/^BACKLINKS_MAX_ROWS: must be a whole number from 1 to 1000000/);
    expect(() => loadConfig({ ...own, BACKLINKS_BASE_URL: 'ftp://x' })).toThrow(/^BACKLINKS_BASE_URL: must be an absolute http\(s\) URL/);
    expect(BACKLINK_INDEX_SETTINGS).toContain('BACKLINKS_BASE_URL, BACKLINKS_LOGIN and BACKLINKS_PASSWORD');
  });
});
