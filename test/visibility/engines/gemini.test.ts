import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GeminiEngine } from '../../../src/integrations/google/geminiEngine.js';
import { FakeGemini } from '../../integrations/fakes/google/gemini.js';
import { failure, TUNING } from './support.js';

function candidate(fields: Record<string, unknown>): unknown {
  return { candidates: [{ content: { parts: [{ text: 'Acme CRM.' }], role: 'model' }, finishReason: 'STOP', ...fields }], modelVersion: 'gemini-2.5-flash' };
}

describe('Gemini through generateContent with Google Search grounding', () => {
  let fake: FakeGemini;
  let engine: GeminiEngine;
  beforeAll(async () => {
    fake = await FakeGemini.start();
    engine = new GeminiEngine({ baseUrl: fake.baseUrl, apiKey: 'gemini-key', model: 'gemini-2.5-flash', perMinute: 60 }, TUNING);
  });
  afterEach(() => fake.reset());
  afterAll(async () => {
    await engine.close();
    await fake.close();
  });

  it('asks the model at its generateContent path with the x-goog-api-key header and the googleSearch tool', async () => {
    await engine.ask('meilleur crm', { locale: 'fr-FR' });
    const [request] = fake.requests;
    expect(request!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request!.headers['x-goog-api-key']).toBe('gemini-key');
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.body).toEqual({
      systemInstruction: { parts: [{ text: "The user's locale is fr-FR: answer in French (France)." }] },
      contents: [{ role: 'user', parts: [{ text: 'meilleur crm' }] }],
      tools: [{ googleSearch: {} }],
    });
  });

  it('cites the chunks a grounding support points at, resolved from their redirect links to the real pages', async () => {
    fake.answer({
      text: 'Acme CRM is a common choice for agencies.',
      citations: [
        { url: 'https://www.acme.example/agencies', title: 'Acme for agencies' },
        { url: 'https://reviews.example/best-crm' },
      ],
      retrieved: [{ url: 'https://only-retrieved.example/page' }],
    });
    const answer = await engine.ask('best crm', { locale: 'en' });
    expect(answer.text).toBe('Acme CRM is a common choice for agencies.');
    // Gemini's title is the source's domain, not the page title.
    expect(answer.citations).toEqual([
      { url: 'https://www.acme.example/agencies', domain: 'acme.example', title: 'acme.example', rank: 1 },
      { url: 'https://reviews.example/best-crm', domain: 'reviews.example', title: 'reviews.example', rank: 2 },
    ]);
    expect(answer.model).toBe('gemini-2.5-flash');
  });

  it("keeps the domain from the chunk's title when a redirect link cannot be resolved", async () => {
    fake.breakRedirects();
    fake.answer({ text: 'Acme CRM.', citations: [{ url: 'https://www.acme.example/agencies' }] });
    const answer = await engine.ask('best crm', { locale: 'en' });
    expect(answer.citations).toEqual([{ url: 'https://acme.example/', domain: 'acme.example', title: 'acme.example', rank: 1 }]);
  });

  it('drops a source whose redirect fails and whose title is not a domain', async () => {
    const redirect = `${fake.origin}/grounding-api-redirect/unknown-token`;
    fake.reply({
      status: 200,
      body: candidate({
        groundingMetadata: {
          groundingChunks: [{ web: { uri: redirect, title: 'Some page title' } }, { web: { uri: 'https://direct.example/page', title: 'direct.example' } }],
          groundingSupports: [{ segment: { startIndex: 0, endIndex: 9, text: 'Acme CRM.' }, groundingChunkIndices: [0, 1], confidenceScores: [0.9, 0.8] }],
        },
      }),
    });
    const answer = await engine.ask('best crm', { locale: 'en' });
    // A link that is not a grounding redirect is the page itself.
    expect(answer.citations).toEqual([{ url: 'https://direct.example/page', domain: 'direct.example', title: 'direct.example', rank: 1 }]);
  });

  it('answers without citations when the model did not ground the answer', async () => {
    fake.reply({ status: 200, body: candidate({}) }, { status: 200, body: candidate({ groundingMetadata: { groundingChunks: [{ web: { uri: 'https://x.example/', title: 'x.example' } }] } }) });
    expect((await engine.ask('best crm', { locale: 'en' })).citations).toEqual([]);
    expect((await engine.ask('best crm', { locale: 'en' })).citations).toEqual([]);
  });

  it('joins the text parts and leaves out thought parts', async () => {
    fake.reply({ status: 200, body: { candidates: [{ content: { parts: [{ text: 'Thinking about Pipedrive…', thought: true }, { text: 'Acme CRM ' }, { text: 'fits agencies.' }] }, finishReason: 'STOP' }] } });
    const answer = await engine.ask('best crm', { locale: 'en' });
    expect(answer.text).toBe('Acme CRM fits agencies.');
    expect(answer.model).toBe('gemini-2.5-flash');
  });

  it('is refused when the question is blocked or the answer withheld for safety', async () => {
    fake.reply({ status: 200, body: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } } }, { status: 200, body: { candidates: [{ finishReason: 'SAFETY', index: 0 }] } });
    const blocked = await failure(engine.ask('something forbidden', { locale: 'en' }));
    expect(blocked.errorClass).toBe('refused');
    expect(blocked.message).toContain('PROHIBITED_CONTENT');
    expect((await failure(engine.ask('something forbidden', { locale: 'en' }))).errorClass).toBe('refused');
  });

  it('retries a 503 and a 429, then answers', async () => {
    fake.reply({ status: 503, body: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } });
    fake.reply({ status: 429, body: { error: { code: 429, message: 'Resource has been exhausted.', status: 'RESOURCE_EXHAUSTED' } } });
    fake.answer({ text: 'Acme CRM.' });
    expect((await engine.ask('best crm', { locale: 'en' })).text).toBe('Acme CRM.');
    expect(fake.requests).toHaveLength(3);
  });

  it("waits as long as the 429's RetryInfo.retryDelay says, then answers", async () => {
    const arrivals: number[] = [];
    fake.reply(() => {
      arrivals.push(performance.now());
      return {
        status: 429,
        body: {
          error: {
            code: 429,
            message: 'You exceeded your current quota, please check your plan and billing details.',
            status: 'RESOURCE_EXHAUSTED',
            details: [
              { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests' }] },
              { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' },
            ],
          },
        },
      };
    });
    fake.reply(() => (arrivals.push(performance.now()), { status: 200, body: candidate({}) }));
    expect((await engine.ask('best crm', { locale: 'en' })).text).toBe('Acme CRM.');
    // The tuning's backoff is 5 ms: only the retryDelay explains a second's wait.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('is a provider_error for a refused request, naming the reason, without retrying', async () => {
    fake.reply({ status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } } });
    const error = await failure(engine.ask('best crm', { locale: 'en' }));
    expect(error.errorClass).toBe('provider_error');
    expect(error.message).toContain('API key not valid');
    expect(fake.requests).toHaveLength(1);
  });

  it('is a bad_response without a candidate', async () => {
    fake.reply({ status: 200, body: { candidates: [] } });
    expect((await failure(engine.ask('best crm', { locale: 'en' }))).errorClass).toBe('bad_response');
  });
});
