import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClaudeEngine } from '../../../src/integrations/anthropic/claudeEngine.js';
import { answerBlocks, FakeAnthropic } from '../../integrations/fakes/anthropic.js';
import { failure, TUNING } from './support.js';

const SEARCH = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'best crm' } };

function message(content: unknown[], stopReason = 'end_turn'): unknown {
  return { id: 'msg_x', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: stopReason, usage: { input_tokens: 10, output_tokens: 10 } };
}

function searchError(code: string): unknown {
  return { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'web_search_tool_result_error', error_code: code } };
}

function results(...urls: string[]): unknown {
  return { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: urls.map((url) => ({ type: 'web_search_result', url, title: url, encrypted_content: 'Eq…', page_age: null })) };
}

describe('Claude through the Messages API with web search', () => {
  let fake: FakeAnthropic;
  let engine: ClaudeEngine;
  beforeAll(async () => {
    fake = await FakeAnthropic.start();
    engine = new ClaudeEngine({ baseUrl: fake.baseUrl, apiKey: 'sk-ant-key', model: 'claude-sonnet-4-5', perMinute: 60 }, TUNING);
  });
  afterEach(() => fake.reset());
  afterAll(async () => {
    await engine.close();
    await fake.close();
  });

  it('asks with x-api-key, anthropic-version and the web_search_20250305 tool at five searches, localised by country', async () => {
    await engine.ask('best crm for agencies', { locale: 'en-GB' });
    const [request] = fake.requests;
    expect(request!.path).toBe('/v1/messages');
    expect(request!.headers['x-api-key']).toBe('sk-ant-key');
    expect(request!.headers['anthropic-version']).toBe('2023-06-01');
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: "The user's locale is en-GB: answer in British English.",
      messages: [{ role: 'user', content: 'best crm for agencies' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5, user_location: { type: 'approximate', country: 'GB' } }],
    });
  });

  it("answers with the text after the search, whose web_search_result_location citations are the citations (not the search's other results)", async () => {
    fake.answer({
      text: 'Acme CRM is the usual pick. Pipedrive is a close second.',
      citations: [
        { url: 'https://www.acme.example/agencies', title: 'Acme for agencies' },
        { url: 'https://reviews.example/crm', title: 'CRM reviews' },
      ],
      retrieved: [{ url: 'https://only-read.example/' }],
    });
    const answer = await engine.ask('best crm for agencies', { locale: 'en' });
    // The narration before the search ("I'll search for best crm for agencies.") is not part of the answer.
    expect(answer.text).toBe('Acme CRM is the usual pick. Pipedrive is a close second.');
    expect(answer.citations).toEqual([
      { url: 'https://www.acme.example/agencies', domain: 'acme.example', title: 'Acme for agencies', rank: 1 },
      { url: 'https://reviews.example/crm', domain: 'reviews.example', title: 'CRM reviews', rank: 2 },
    ]);
    expect(answer.model).toBe('claude-sonnet-4-5-20250929');
  });

  it('answers without citations when Claude did not search', async () => {
    fake.reply({ status: 200, body: message([{ type: 'text', text: 'Acme CRM, from what I know.' }]) });
    expect(await engine.ask('best crm', { locale: 'en' })).toMatchObject({ text: 'Acme CRM, from what I know.', citations: [] });
  });

  it('keeps the answer when one search failed and another found results', async () => {
    fake.reply({ status: 200, body: message([SEARCH, searchError('query_too_long'), SEARCH, results('https://acme.example/'), ...answerBlocks('Acme CRM.', [{ url: 'https://acme.example/' }])]) });
    expect((await engine.ask('best crm', { locale: 'en' })).citations.map((c) => c.domain)).toEqual(['acme.example']);
  });

  it('retries when the search tool was rate-limited, and answers with the next attempt', async () => {
    fake.reply({ status: 200, body: message([SEARCH, searchError('too_many_requests'), { type: 'text', text: 'I could not search right now, but Acme CRM is popular.' }]) });
    fake.answer({ text: 'Acme CRM.', citations: [{ url: 'https://acme.example/' }] });
    const answer = await engine.ask('best crm', { locale: 'en' });
    expect(answer.citations).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails as rate_limited when the search tool stays rate-limited: an answer without its search is not counted', async () => {
    const limited = { status: 200, body: message([SEARCH, searchError('too_many_requests'), { type: 'text', text: 'Acme CRM is popular.' }]) };
    fake.reply(limited, limited, limited);
    const error = await failure(engine.ask('best crm', { locale: 'en' }));
    expect(error.errorClass).toBe('rate_limited');
    expect(error.message).toContain('too_many_requests');
    expect(fake.requests).toHaveLength(3);
  });

  it('fails at once as a provider_error when every search failed in a way a retry would repeat', async () => {
    fake.reply({ status: 200, body: message([SEARCH, searchError('max_uses_exceeded'), { type: 'text', text: 'Acme CRM is popular.' }]) });
    const error = await failure(engine.ask('best crm', { locale: 'en' }));
    expect(error.errorClass).toBe('provider_error');
    expect(error.message).toContain('max_uses_exceeded');
    expect(fake.requests).toHaveLength(1);
  });

  it('continues a paused turn by sending it back, and answers with the whole turn', async () => {
    const paused = [{ type: 'text', text: "I'll search for that." }, SEARCH, results('https://acme.example/')];
    fake.reply({ status: 200, body: message(paused, 'pause_turn') }, { status: 200, body: message(answerBlocks('Acme CRM fits. It is cheap.', [{ url: 'https://acme.example/' }])) });
    const answer = await engine.ask('best crm', { locale: 'en' });
    expect(answer.text).toBe('Acme CRM fits. It is cheap.');
    expect(answer.citations.map((c) => c.url)).toEqual(['https://acme.example/']);
    expect(fake.requests[1]!.body.messages).toEqual([
      { role: 'user', content: 'best crm' },
      { role: 'assistant', content: paused },
    ]);
  });

  it('is refused when Claude stops with the refusal stop reason', async () => {
    fake.reply({ status: 200, body: message([], 'refusal') });
    expect((await failure(engine.ask('something forbidden', { locale: 'en' }))).errorClass).toBe('refused');
  });

  it('retries an overloaded (529) answer', async () => {
    fake.reply({ status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    fake.answer({ text: 'Acme CRM.' });
    expect((await engine.ask('best crm', { locale: 'en' })).text).toBe('Acme CRM.');
    expect(fake.requests).toHaveLength(2);
  });

  it('is a provider_error naming the reason when the request is refused', async () => {
    fake.reply({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'web search is not enabled for this organization' } } });
    const error = await failure(engine.ask('best crm', { locale: 'en' }));
    expect(error.errorClass).toBe('provider_error');
    expect(error.message).toContain('web search is not enabled');
  });

  it('is a bad_response when the turn ends without text', async () => {
    fake.reply({ status: 200, body: message([SEARCH, results('https://acme.example/')], 'max_tokens') });
    expect((await failure(engine.ask('best crm', { locale: 'en' }))).errorClass).toBe('bad_response');
  });
});
