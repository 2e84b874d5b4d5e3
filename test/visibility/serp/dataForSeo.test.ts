import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../../../src/brand/locales.js';
import type { EngineTuning } from '../../../src/visibility/engines/providerHttp.js';
import { createSerpClient } from '../../../src/integrations/dataforseo/serp.js';
import { bingCopilotEngine } from '../../../src/visibility/engines/serpEngines.js';
import { searchLocation } from '../../../src/visibility/serp/searchLocation.js';
import type { SerpClient } from '../../../src/visibility/serp/serp.js';
import { TestService } from '../../support/harness.js';
import { failure } from '../engines/support.js';
import { FakeDataForSeo } from '../../integrations/fakes/dataforseo/serp.js';
import { MemoryLimiterStore } from '../../../src/limits/memoryStore.js';

const TUNING: EngineTuning = { timeoutMs: 500, retries: 2, backoffMs: 5, concurrency: 3 };
const en = { locale: 'en' };

let fake: FakeDataForSeo;
let serp: SerpClient;

beforeAll(async () => {
  fake = await FakeDataForSeo.start();
  serp = createSerpClient({ baseUrl: fake.baseUrl, login: fake.login, password: fake.password, perMinute: 2000 }, TUNING, new MemoryLimiterStore())!;
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const results = (n: number, host = 'site') => Array.from({ length: n }, (_, i) => ({ url: `https://www.${host}${i + 1}.example/page`, title: `Page ${i + 1}` }));

describe('the DataForSEO SERP client', () => {
  it('posts one live advanced task with Basic auth, the locale as location and language codes, depth 30 and the late-loaded AI overview', async () => {
    await serp.google('best crm for startups', { locale: 'de-AT' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.path).toBe('/v3/serp/google/organic/live/advanced');
    expect(request!.authorization).toBe(`Basic ${Buffer.from(`${fake.login}:${fake.password}`).toString('base64')}`);
    expect(request!.tasks).toEqual([{ keyword: 'best crm for startups', location_code: 2040, language_code: 'de', depth: 30, load_async_ai_overview: true }]);
  });

  it('keeps the top 30 organic results by rank_group, skipping other SERP features, with www. stripped from domains', async () => {
    fake.serp('google', 'crm', { organic: results(35) });
    const { organic, aiOverview, model, latencyMs } = await serp.google('crm', en);
    expect(organic).toHaveLength(30);
    expect(organic.map((r) => r.position)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(organic[3]).toEqual({ position: 4, url: 'https://www.site4.example/page', domain: 'site4.example', title: 'Page 4' });
    expect(aiOverview).toEqual({ shown: false, text: '', references: [] });
    expect(model).toBe('dataforseo-0.1.20251117');
    expect(latencyMs).toEqual(expect.any(Number));
  });

  it('reads the AI overview: its markdown and its reference list, normalised and deduplicated', async () => {
    fake.serp('google', 'what is a crm', {
      organic: results(3),
      aiOverview: {
        markdown: 'A **CRM** keeps customer records. Acme and Globex sell one.',
        references: [
          { url: 'https://www.acme.example/crm', title: 'What is a CRM? | Acme', source: 'Acme' },
          { url: 'https://docs.globex.example/intro', source: 'Globex' },
          { url: 'https://www.acme.example/crm', title: 'duplicate' },
        ],
      },
    });
    const { aiOverview } = await serp.google('what is a crm', en);
    expect(aiOverview).toEqual({
      shown: true,
      text: 'A **CRM** keeps customer records. Acme and Globex sell one.',
      references: [
        { url: 'https://www.acme.example/crm', domain: 'acme.example', title: 'What is a CRM? | Acme', rank: 1 },
        { url: 'https://docs.globex.example/intro', domain: 'docs.globex.example', title: 'Globex', rank: 2 },
      ],
    });
  });

  it('falls back to the sections of an overview that has no markdown and no reference list of its own', async () => {
    fake.serp('google', 'crm pricing', {
      aiOverview: {
        sections: [
          { text: 'Prices start at $12 a seat.', references: [{ url: 'https://acme.example/pricing', title: 'Pricing' }] },
          { text: 'Most plans bill yearly.' },
        ],
      },
    });
    const { aiOverview, organic } = await serp.google('crm pricing', en);
    expect(organic).toEqual([]);
    expect(aiOverview.text).toBe('Prices start at $12 a seat.\n\nMost plans bill yearly.');
    expect(aiOverview.references.map((r) => r.url)).toEqual(['https://acme.example/pricing']);
  });

  it('answers an empty SERP for "no search results" (40102) rather than failing', async () => {
    fake.serp('google', 'zzqx', { taskError: { code: 40102, message: 'No Search Results.' } });
    expect(await serp.google('zzqx', en)).toMatchObject({ organic: [], aiOverview: { shown: false } });
  });

  it('retries the per-minute rate limit (40202 inside HTTP 200) and gets the answer', async () => {
    fake.serp('google', 'crm', { requestError: { code: 40202, message: 'Rate-limit per minute exceeded.' } }, { organic: results(2) });
    expect((await serp.google('crm', en)).organic).toHaveLength(2);
    expect(fake.requests).toHaveLength(2);
  });

  it('reports rate_limited after the bounded retries when the limit persists', async () => {
    fake.serp('google', 'crm', { taskError: { code: 40209, message: 'Too many simultaneous queries.' } });
    const error = await failure(serp.google('crm', en));
    expect(error.errorClass).toBe('rate_limited');
    expect(error.message).toContain('40209');
    expect(fake.requests).toHaveLength(TUNING.retries + 1);
  });

  it('retries HTTP 5xx and honours Retry-After', async () => {
    fake.serp('bing', 'crm', { http: { status: 503, body: '{"status_code":50000}', headers: { 'retry-after': '0' } } }, { organic: results(4, 'bing') });
    expect((await serp.bing('crm', en)).organic.map((r) => r.domain)).toEqual(['bing1.example', 'bing2.example', 'bing3.example', 'bing4.example']);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v3/serp/bing/organic/live/advanced', '/v3/serp/bing/organic/live/advanced']);
    expect(fake.requests[1]!.tasks[0]).toEqual({ keyword: 'crm', location_code: 2840, language_code: 'en', depth: 30 });
  });

  it('fails at once, without retrying, on errors another attempt cannot fix: wrong credentials, no money, an invalid field', async () => {
    const wrong = createSerpClient({ baseUrl: fake.baseUrl, login: fake.login, password: 'wrong', perMinute: 2000 }, TUNING, new MemoryLimiterStore())!;
    expect((await failure(wrong.google('crm', en))).errorClass).toBe('provider_error');
    expect(fake.requests).toHaveLength(1);

    fake.serp('google', 'broke', { requestError: { code: 40210, message: 'Insufficient funds.' } });
    const broke = await failure(serp.google('broke', en));
    expect(broke).toMatchObject({ errorClass: 'provider_error', message: expect.stringContaining('40210: Insufficient funds.') });
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a timeout when the provider never answers', async () => {
    fake.serp('google', 'slow', { hang: true });
    expect((await failure(serp.google('slow', en))).errorClass).toBe('timeout');
  });

  it('reports bad_response for an answer that is not a DataForSEO envelope', async () => {
    fake.serp('google', 'odd', { http: { status: 200, body: '{"ok":true}' } });
    expect((await failure(serp.google('odd', en))).errorClass).toBe('bad_response');
  });

  it('keeps at most the engine concurrency of requests in flight', async () => {
    fake.delayMs = 30;
    await Promise.all(Array.from({ length: 8 }, (_, i) => serp.bing(`query ${i}`, en)));
    expect(fake.requests).toHaveLength(8);
    expect(fake.maxInFlight).toBe(TUNING.concurrency);
  });

  describe("Copilot's answer on Bing's page", () => {
    it('reads the ai_overview item of the Bing SERP with its references, from the same call as the ranks', async () => {
      fake.serp('bing', 'best crm for agencies', {
        organic: results(12, 'bing'),
        aiOverview: {
          markdown: 'For agencies, **Acme CRM** and Globex are common picks; Acme has client portals.',
          references: [
            { url: 'https://www.acme.example/agencies', title: 'Acme for agencies', source: 'Acme' },
            { url: 'https://reviews.example/crm-agencies', source: 'Reviews' },
          ],
        },
      });
      const page = await serp.bing('best crm for agencies', en);
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]!.path).toBe('/v3/serp/bing/organic/live/advanced');
      expect(page.organic).toHaveLength(12);
      expect(page.aiOverview).toEqual({
        shown: true,
        text: 'For agencies, **Acme CRM** and Globex are common picks; Acme has client portals.',
        references: [
          { url: 'https://www.acme.example/agencies', domain: 'acme.example', title: 'Acme for agencies', rank: 1 },
          { url: 'https://reviews.example/crm-agencies', domain: 'reviews.example', title: 'Reviews', rank: 2 },
        ],
      });
      const answer = await bingCopilotEngine(serp).ask('best crm for agencies', en);
      expect(answer).toMatchObject({ text: page.aiOverview.text, citations: page.aiOverview.references, model: 'dataforseo-0.1.20251117' });
      expect(answer.notShown).toBeUndefined();
    });

    it('keeps an answer without references as an answer with no citations', async () => {
      fake.serp('bing', 'what is a crm', { organic: results(3), aiOverview: { sections: [{ text: 'A CRM keeps customer records.' }] } });
      const answer = await bingCopilotEngine(serp).ask('what is a crm', en);
      expect(answer).toMatchObject({ text: 'A CRM keeps customer records.', citations: [] });
      expect(answer.notShown).toBeUndefined();
    });

    it('is "not shown" when the Bing page has no Copilot answer, and still gives the ranks', async () => {
      fake.serp('bing', 'crm login', { organic: results(5) });
      const page = await serp.bing('crm login', en);
      expect(page.aiOverview.shown).toBe(false);
      expect(page.organic).toHaveLength(5);
      expect(await bingCopilotEngine(serp).ask('crm login', en)).toMatchObject({ text: '', citations: [], notShown: true });
    });

    it('fails with the provider error class, never as not shown', async () => {
      fake.serp('bing', 'crm', { taskError: { code: 40501, message: "Invalid Field: 'keyword'." } });
      const error = await failure(bingCopilotEngine(serp).ask('crm', en));
      expect(error.errorClass).toBe('provider_error');
      expect(error.message).toContain('40501');
    });
  });

  describe('findWebsite', () => {
    it("skips social networks, wikis, directories, marketplaces and app stores and answers the first other result's origin", async () => {
      fake.serp('google', 'Globex', {
        organic: [
          { url: 'https://en.wikipedia.org/wiki/Globex' },
          { url: 'https://www.linkedin.com/company/globex' },
          { url: 'https://www.amazon.de/stores/Globex' },
          { url: 'https://apps.apple.com/us/app/globex/id123' },
          { url: 'https://x.com/globex' },
          { url: 'https://www.globex.example/en/home?ref=1' },
          { url: 'https://globex-fans.example/' },
        ],
      });
      expect(await serp.findWebsite('Globex')).toBe('https://www.globex.example');
      expect(fake.requests[0]!.tasks[0]).toEqual({ keyword: 'Globex', location_code: 2840, language_code: 'en', depth: 10 });
    });

    it('searches in the given locale and answers undefined when only non-company sites rank', async () => {
      fake.serp('google', 'Initech', { organic: [{ url: 'https://www.crunchbase.com/organization/initech' }, { url: 'https://www.ebay.co.uk/b/initech' }] });
      expect(await serp.findWebsite('Initech', { locale: 'en-GB' })).toBeUndefined();
      expect(fake.requests[0]!.tasks[0]).toMatchObject({ location_code: 2826 });
    });

    it('keeps a company whose own domain merely looks like a listed one (x.ai is not x.com)', async () => {
      fake.serp('google', 'xAI', { organic: [{ url: 'https://x.com/xai' }, { url: 'https://x.ai/' }] });
      expect(await serp.findWebsite('xAI')).toBe('https://x.ai');
    });
  });

  it('maps every supported locale to a country of its own and DataForSEO language code', () => {
    const searched = SUPPORTED_LOCALES.map((locale) => [locale, searchLocation(locale)] as const);
    // Only English without a country falls to the United States; every other locale names or implies its own country.
    expect(searched.filter(([, where]) => where.location_code === 2840).map(([locale]) => locale)).toEqual(['en', 'en-US']);
    expect(searchLocation('zh-Hant')).toEqual({ location_code: 2158, language_code: 'zh-TW' });
    expect(searchLocation('zh')).toEqual({ location_code: 2156, language_code: 'zh-CN' });
    expect(searchLocation('pt')).toEqual({ location_code: 2076, language_code: 'pt' });
  });
});

describe('the SERP provider in the service', () => {
  it('is built from SERP_BASE_URL, SERP_LOGIN and SERP_PASSWORD, and absent without them', async () => {
    const configured = await TestService.start({ writer: false, env: fake.env() });
    const unconfigured = await TestService.start({ writer: false });
    try {
      fake.serp('google', 'Acme', { organic: [{ url: 'https://acme.example/' }] });
      expect(await configured.service.services.serp!.findWebsite('Acme')).toBe('https://acme.example');
      expect(unconfigured.service.services.serp).toBeUndefined();
    } finally {
      await Promise.all([configured.close(), unconfigured.close()]);
    }
  });
});
