import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiResponsesEngine } from '../../../src/integrations/openai/chatgptEngine.js';
import { FakeOpenAi } from '../../integrations/fakes/openai.js';
import { failure, TUNING } from './support.js';

function message(content: unknown[]): unknown {
  return { id: 'resp_x', object: 'response', status: 'completed', model: 'gpt-4.1-mini-2025-04-14', output: [{ type: 'message', id: 'msg_x', role: 'assistant', content }] };
}

describe('ChatGPT through the OpenAI Responses API', () => {
  let fake: FakeOpenAi;
  let engine: OpenAiResponsesEngine;
  beforeAll(async () => {
    fake = await FakeOpenAi.start();
    engine = new OpenAiResponsesEngine({ baseUrl: fake.baseUrl, apiKey: 'sk-openai', model: 'gpt-4.1-mini', perMinute: 60 }, TUNING);
  });
  afterEach(() => fake.reset());
  afterAll(async () => {
    await engine.close();
    await fake.close();
  });

  it('asks with the web_search tool, the bearer key, the model and the brand country, and keeps nothing at OpenAI', async () => {
    await engine.ask('best crm for small agencies', { locale: 'de-AT' });
    const [request] = fake.requests;
    expect(request!.path).toBe('/v1/responses');
    expect(request!.headers.authorization).toBe('Bearer sk-openai');
    expect(request!.body).toMatchObject({
      model: 'gpt-4.1-mini',
      input: 'best crm for small agencies',
      tools: [{ type: 'web_search', user_location: { type: 'approximate', country: 'AT' } }],
      store: false,
    });
    expect(request!.body.instructions).toBe("The user's locale is de-AT: answer in Austrian German.");
  });

  it('leaves the location out when the locale names no country', async () => {
    await engine.ask('best crm', { locale: 'es-419' });
    expect(fake.requests[0]!.body.tools).toEqual([{ type: 'web_search' }]);
  });

  it('takes the url_citation annotations as the citations, without the utm_source=openai tag, and not the pages the search only read', async () => {
    fake.answer({
      text: 'Acme CRM and Pipedrive are popular with agencies.',
      citations: [
        { url: 'https://www.acme.example/crm?plan=team', title: 'Acme CRM for agencies' },
        { url: 'https://blog.pipedrive.example/agencies', title: 'Pipedrive for agencies' },
        { url: 'https://www.acme.example/crm?plan=team', title: 'Acme CRM again' },
      ],
      retrieved: [{ url: 'https://ignored.example/only-read' }],
    });
    const answer = await engine.ask('best crm for small agencies', { locale: 'en-US' });
    expect(answer.text).toBe('Acme CRM and Pipedrive are popular with agencies.');
    expect(answer.citations).toEqual([
      { url: 'https://www.acme.example/crm?plan=team', domain: 'acme.example', title: 'Acme CRM for agencies', rank: 1 },
      { url: 'https://blog.pipedrive.example/agencies', domain: 'blog.pipedrive.example', title: 'Pipedrive for agencies', rank: 2 },
    ]);
    expect(answer.model).toBe('gpt-4.1-mini-2025-04-14');
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('drops the utm_source=chatgpt.com tag too, keeping the links’ own parameters exactly as written', async () => {
    fake.utmSource = 'chatgpt.com';
    fake.answer({
      text: 'Acme CRM is popular with agencies.',
      citations: [
        { url: 'https://www.acme.example/crm?plan=team&q=small%20agencies&utm_campaign=spring', title: 'Acme CRM for agencies' },
        { url: 'https://blog.pipedrive.example/agencies', title: 'Pipedrive for agencies' },
      ],
    });
    const answer = await engine.ask('best crm for small agencies', { locale: 'en-US' });
    expect(answer.citations.map((citation) => citation.url)).toEqual([
      'https://www.acme.example/crm?plan=team&q=small%20agencies&utm_campaign=spring',
      'https://blog.pipedrive.example/agencies',
    ]);
  });

  it('keeps a utm_source the cited link carried itself', async () => {
    fake.answer({ text: 'Acme CRM.', citations: [{ url: 'https://www.acme.example/crm?utm_source=newsletter', title: 'Acme CRM' }] });
    const answer = await engine.ask('best crm', { locale: 'en-US' });
    expect(answer.citations.map((citation) => citation.url)).toEqual(['https://www.acme.example/crm?utm_source=newsletter']);
  });

  it('answers without citations when the model did not search', async () => {
    fake.reply({ status: 200, body: message([{ type: 'output_text', text: 'From memory: Acme CRM.', annotations: [] }]) });
    const answer = await engine.ask('best crm', { locale: 'en' });
    expect(answer).toMatchObject({ text: 'From memory: Acme CRM.', citations: [], model: 'gpt-4.1-mini-2025-04-14' });
  });

  it('waits as long as Retry-After says after a 429, then answers', async () => {
    const arrivals: number[] = [];
    fake.reply(
      () => (arrivals.push(performance.now()), { status: 429, body: { error: { message: 'Rate limit reached', type: 'requests' } }, headers: { 'retry-after': '1' } }),
      () => (arrivals.push(performance.now()), { status: 200, body: message([{ type: 'output_text', text: 'Acme.', annotations: [] }]) }),
    );
    const answer = await engine.ask('best crm', { locale: 'en' });
    expect(answer.text).toBe('Acme.');
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('is rate_limited when every attempt answers 429', async () => {
    fake.reply(...Array.from({ length: 3 }, () => ({ status: 429, body: { error: { message: 'Rate limit reached' } } })));
    const error = await failure(engine.ask('best crm', { locale: 'en' }));
    expect(error.errorClass).toBe('rate_limited');
    expect(error.message).toContain('Rate limit reached');
    expect(fake.requests).toHaveLength(3);
  });

  it('is a provider_error when the 5xx answers outlast the retries', async () => {
    fake.reply(...Array.from({ length: 3 }, () => ({ status: 502, body: { error: { message: 'Bad gateway' } } })));
    const error = await failure(engine.ask('best crm', { locale: 'en' }));
    expect(error.errorClass).toBe('provider_error');
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a refused key', async () => {
    fake.reply({ status: 401, body: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } } });
    const error = await failure(engine.ask('best crm', { locale: 'en' }));
    expect(error.errorClass).toBe('provider_error');
    expect(error.message).toContain('Incorrect API key provided');
    expect(fake.requests).toHaveLength(1);
  });

  it('is refused when the model refuses or the content filter stops the answer', async () => {
    fake.reply(
      { status: 200, body: message([{ type: 'refusal', refusal: "I'm sorry, I can't help with that." }]) },
      { status: 200, body: { status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [] } },
    );
    const refusal = await failure(engine.ask('something forbidden', { locale: 'en' }));
    expect(refusal.errorClass).toBe('refused');
    expect(refusal.message).toContain("can't help");
    expect((await failure(engine.ask('something forbidden', { locale: 'en' }))).errorClass).toBe('refused');
  });

  it('is a bad_response when the answer has no message or is not the Responses shape', async () => {
    fake.reply(
      { status: 200, body: { status: 'completed', output: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }] } },
      { status: 200, body: { choices: [] } },
      { status: 200, body: '<html>gateway</html>' },
    );
    for (let i = 0; i < 3; i++) expect((await failure(engine.ask('best crm', { locale: 'en' }))).errorClass).toBe('bad_response');
  });

  it('is a provider_error when OpenAI reports the response failed', async () => {
    fake.reply({ status: 200, body: { status: 'failed', error: { code: 'server_error', message: 'The model failed to generate a response' }, output: [] } });
    const error = await failure(engine.ask('best crm', { locale: 'en' }));
    expect(error.errorClass).toBe('provider_error');
    expect(error.message).toContain('failed to generate');
  });
});
