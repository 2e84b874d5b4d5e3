import { describe, expect, it } from 'vitest';
import { AI_CRAWLERS, aiCrawlerOf, answer, MemorySeenDeliveries, verifyDelivery, type VerifyOptions } from '../../packages/site/src/index.js';
import { classifyUserAgent } from '../../src/crawlers/classify.js';
import { deliveryHeaders, newSigningSecret } from '../../src/publishing/signing.js';

const NOW = Date.UTC(2026, 10, 29, 12);
const secret = newSigningSecret();
const article = { id: 'art_1', title: 'How to pick a CRM', slug: 'how-to-pick-a-crm', html: '<p>Pick one.</p>', publishedAt: NOW, status: 'publish', keywords: ['crm'], author: { name: 'Dana' } };
const body = JSON.stringify({ event: 'article.published', timestamp: NOW, article });

/** A delivery signed by the service's own signing code, as the job worker sends it at `sentAt`. */
function signed(options: { body?: string; sentAt?: number; id?: string; event?: string; key?: string } = {}) {
  const text = options.body ?? body;
  const headers = deliveryHeaders({ deliveryId: options.id ?? 'dlv_1', event: options.event ?? 'article.published', body: text, secret: options.key ?? secret, now: options.sentAt ?? NOW });
  return { headers, rawBody: new TextEncoder().encode(text) };
}

const verify = (delivery: Partial<VerifyOptions> & Pick<VerifyOptions, 'headers'>, extra: Partial<VerifyOptions> = {}) =>
  verifyDelivery({ secret, now: () => NOW, ...delivery, ...extra } as VerifyOptions);

describe('verifyDelivery', () => {
  it('accepts a delivery signed by the service and answers it typed, with its webhook-id', async () => {
    const result = await verify(signed());
    expect(result).toEqual({ ok: true, delivery: { id: 'dlv_1', event: 'article.published', timestamp: NOW, article } });
  });

  it('takes web Headers, a Node Buffer, an ArrayBuffer or a string as the raw body', async () => {
    const { headers, rawBody } = signed();
    for (const raw of [Buffer.from(body), rawBody.buffer, body]) expect((await verify({ headers: new Headers(headers), rawBody: raw })).ok).toBe(true);
  });

  it('refuses a tampered body, a wrong secret and a forged Standard Webhooks id or timestamp with 401', async () => {
    const { headers } = signed();
    const tampered = await verify({ headers, rawBody: body.replace('Pick one.', 'Buy ours.') });
    expect(tampered).toMatchObject({ ok: false, reason: 'unauthorized', status: 401, message: 'X-Service-Signature does not match the body and the secret' });
    expect(await verify(signed(), { secret: newSigningSecret() })).toMatchObject({ ok: false, reason: 'unauthorized' });
    // X-Service-Signature covers the body only; webhook-signature binds the id and timestamp a replay would change.
    for (const forged of [{ 'webhook-id': 'dlv_2' }, { 'webhook-timestamp': String(NOW / 1000 + 1) }]) {
      const result = await verify({ headers: { ...headers, ...forged }, rawBody: body });
      expect(result).toMatchObject({ ok: false, reason: 'unauthorized', message: 'webhook-signature does not match the id, timestamp, body and secret' });
    }
    expect(await verify({ headers: { ...headers, 'x-service-signature': 'sha256=zz' }, rawBody: body })).toMatchObject({ ok: false, status: 401 });
  });

  it('without the raw body, compares the bearer token with the secret', async () => {
    const { headers } = signed();
    expect(await verify({ headers, parsedBody: JSON.parse(body) })).toMatchObject({ ok: true, delivery: { id: 'dlv_1', article } });
    expect(await verify({ headers, parsedBody: body })).toMatchObject({ ok: true });
    expect(await verify({ headers: { ...headers, authorization: 'Bearer whsec_guess' }, parsedBody: JSON.parse(body) })).toMatchObject({
      ok: false,
      reason: 'unauthorized',
      message: 'the bearer token is not the signing secret',
    });
  });

  it('refuses a timestamp more than 5 minutes old or ahead, and accepts one just inside', async () => {
    expect(await verify(signed({ sentAt: NOW - 301_000 }))).toMatchObject({ ok: false, reason: 'expired', status: 401, message: 'webhook-timestamp is more than 300 seconds old' });
    expect(await verify(signed({ sentAt: NOW + 301_000 }))).toMatchObject({ ok: false, reason: 'expired', message: 'webhook-timestamp is more than 300 seconds in the future' });
    expect((await verify(signed({ sentAt: NOW - 299_000 }))).ok).toBe(true);
    expect((await verify(signed({ sentAt: NOW - 60_000 }), { toleranceSeconds: 30 })).ok).toBe(false);
  });

  it('with a seen-id store, refuses the same delivery sent again with 409, and forgets the id once its timestamp is out of the window', async () => {
    let now = NOW;
    const seen = new MemorySeenDeliveries({ now: () => now });
    const delivery = signed();
    expect((await verify(delivery, { seen })).ok).toBe(true);
    expect(await verify(delivery, { seen })).toMatchObject({ ok: false, reason: 'replayed', status: 409, message: 'delivery dlv_1 was received before', earlierUrl: null });
    expect((await verify(signed({ id: 'dlv_2' }), { seen })).ok).toBe(true);
    now += 301_000;
    expect(seen.answered('dlv_1')).toBeUndefined();
    expect(await verify(delivery, { seen, now: () => now })).toMatchObject({ reason: 'expired' });
  });

  it('refuses a signed but malformed body with 400, naming what is wrong, and never throws on bad input', async () => {
    const malformed = async (text: string, event = 'article.published') => verify(signed({ body: text, event }));
    expect(await malformed('{not json')).toMatchObject({ ok: false, reason: 'malformed', status: 400, message: 'the body is not JSON' });
    expect(await malformed(JSON.stringify({ event: 'article.deleted', timestamp: NOW, article }))).toMatchObject({ message: expect.stringMatching(/^event "article.deleted" is not one of/) });
    const { title: _title, ...untitled } = article;
    expect(await malformed(JSON.stringify({ event: 'article.published', timestamp: NOW, article: untitled }))).toMatchObject({ message: 'article.title is missing' });
    expect(await malformed(JSON.stringify({ event: 'article.published', timestamp: NOW, article: { ...article, faq: [{ question: 'Q' }] } }))).toMatchObject({ message: 'article.faq[0].answer is missing' });
    expect(await malformed(body, 'test')).toMatchObject({ message: "X-Service-Event test is not the body's event article.published" });
    for (const headers of [{}, { 'webhook-id': 'x', 'webhook-timestamp': 'soon' }, new Headers()]) {
      expect((await verify({ headers, rawBody: '' })).ok).toBe(false);
      expect((await verify({ headers, parsedBody: undefined })).ok).toBe(false);
    }
  });

  it('answer() builds the form the service reads the address from', () => {
    expect(answer({ url: 'https://acme.example/blog/x' })).toEqual({ ok: true, url: 'https://acme.example/blog/x' });
    expect(answer({ url: new URL('https://acme.example/blog/x') })).toEqual({ ok: true, url: 'https://acme.example/blog/x' });
    expect(answer()).toEqual({ ok: true });
  });
});

describe('the AI-crawler list', () => {
  it('names every crawler of the service\'s list as the service classifies it', () => {
    expect(AI_CRAWLERS.length).toBeGreaterThan(100);
    for (const [token] of AI_CRAWLERS) {
      const userAgent = `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${token}/1.0; +https://example.com/bot)`;
      expect(aiCrawlerOf(userAgent), token).toBe(classifyUserAgent(userAgent).crawler);
    }
  });

  it('leaves people\'s browsers and search engines alone', () => {
    for (const userAgent of [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      '',
    ]) {
      expect(aiCrawlerOf(userAgent), userAgent).toBeUndefined();
    }
    expect(aiCrawlerOf(undefined)).toBeUndefined();
    expect(aiCrawlerOf('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)')).toBe('GPTBot');
  });
});
