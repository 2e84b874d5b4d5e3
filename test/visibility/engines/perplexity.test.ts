import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PerplexityEngine } from '../../../src/integrations/perplexity/perplexityEngine.js';
import { FakePerplexity } from '../../integrations/fakes/perplexity.js';
import { failure, TUNING } from './support.js';

function completion(fields: Record<string, unknown>, content: string, finishReason = 'stop'): unknown {
  return { id: 'pplx-x', model: 'sonar', object: 'chat.completion', choices: [{ index: 0, finish_reason: finishReason, message: { role: 'assistant', content } }], ...fields };
}

describe('Perplexity through Sonar chat completions', () => {
  let fake: FakePerplexity;
  let engine: PerplexityEngine;
  beforeAll(async () => {
    fake = await FakePerplexity.start();
    engine = new PerplexityEngine({ baseUrl: fake.baseUrl, apiKey: 'pplx-key', model: 'sonar', perMinute: 60 }, TUNING);
  });
  afterEach(() => fake.reset());
  afterAll(async () => {
    await engine.close();
    await fake.close();
  });

  it('asks the model with the bearer key, the locale as the system message and the country as the search location', async () => {
    await engine.ask('beste crm software', { locale: 'de-DE' });
    const [request] = fake.requests;
    expect(request!.path).toBe('/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer pplx-key');
    expect(request!.body).toEqual({
      model: 'sonar',
      messages: [
        { role: 'system', content: "The user's locale is de-DE: answer in German (Germany)." },
        { role: 'user', content: 'beste crm software' },
      ],
      web_search_options: { user_location: { country: 'DE' } },
    });
  });

  it('takes search_results (with titles) as the citations', async () => {
    fake.answer({
      text: 'Acme CRM leads for agencies.',
      citations: [
        { url: 'https://www.acme.example/', title: 'Acme CRM' },
        { url: 'https://reviews.example/crm', title: 'CRM reviews' },
      ],
    });
    const answer = await engine.ask('best crm', { locale: 'en-GB' });
    expect(answer.text).toBe('Acme CRM leads for agencies.[1][2]');
    expect(answer.citations).toEqual([
      { url: 'https://www.acme.example/', domain: 'acme.example', title: 'Acme CRM', rank: 1 },
      { url: 'https://reviews.example/crm', domain: 'reviews.example', title: 'CRM reviews', rank: 2 },
    ]);
    expect(answer.model).toBe('sonar');
  });

  it('falls back to the bare citations list when search_results is missing, and to none when both are', async () => {
    fake.reply(
      { status: 200, body: completion({ citations: ['https://acme.example/pricing', 'ftp://files.example/x'] }, 'Acme.[1]') },
      { status: 200, body: completion({}, 'No sources.') },
    );
    expect((await engine.ask('best crm', { locale: 'en' })).citations).toEqual([{ url: 'https://acme.example/pricing', domain: 'acme.example', title: null, rank: 1 }]);
    expect((await engine.ask('best crm', { locale: 'en' })).citations).toEqual([]);
  });

  it("keeps only the answer of a reasoning model, without its <think> section", async () => {
    fake.reply({ status: 200, body: completion({ search_results: [] }, '<think>The user wants Pipedrive or Acme…</think>\n\nAcme CRM is the usual pick.') });
    expect((await engine.ask('best crm', { locale: 'en' })).text).toBe('Acme CRM is the usual pick.');
  });

  it('is rate_limited when every attempt answers 429', async () => {
    fake.reply(...Array.from({ length: 3 }, () => ({ status: 429, body: { error: { message: 'Too many requests', type: 'rate_limit_exceeded' } } })));
    expect((await failure(engine.ask('best crm', { locale: 'en' }))).errorClass).toBe('rate_limited');
    expect(fake.requests).toHaveLength(3);
  });

  it('retries a 500 and answers with the next attempt', async () => {
    fake.reply({ status: 500, body: { error: { message: 'Internal error' } } });
    fake.answer({ text: 'Acme.' });
    expect((await engine.ask('best crm', { locale: 'en' })).text).toBe('Acme.');
    expect(fake.requests).toHaveLength(2);
  });

  it('times out when the provider does not answer, after the retries', async () => {
    const impatient = new PerplexityEngine({ baseUrl: fake.baseUrl, apiKey: 'pplx-key', model: 'sonar', perMinute: 60 }, { ...TUNING, timeoutMs: 200, retries: 1 });
    fake.reply({ hang: true }, { hang: true });
    try {
      const error = await failure(impatient.ask('best crm', { locale: 'en' }));
      expect(error.errorClass).toBe('timeout');
      expect(fake.requests).toHaveLength(2);
    } finally {
      await impatient.close();
    }
  });

  it('is refused when the content filter stops the answer', async () => {
    fake.reply({ status: 200, body: completion({}, '', 'content_filter') });
    expect((await failure(engine.ask('something forbidden', { locale: 'en' }))).errorClass).toBe('refused');
  });

  it('is a bad_response when the message is empty', async () => {
    fake.reply({ status: 200, body: completion({}, '   ') });
    expect((await failure(engine.ask('best crm', { locale: 'en' }))).errorClass).toBe('bad_response');
  });

  it('sends no authorization header to a keyless compatible server', async () => {
    const keyless = new PerplexityEngine({ baseUrl: fake.baseUrl, apiKey: undefined, model: 'sonar', perMinute: 60 }, TUNING);
    try {
      await keyless.ask('best crm', { locale: 'en' });
      expect(fake.requests[0]!.headers.authorization).toBeUndefined();
    } finally {
      await keyless.close();
    }
  });
});
