import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../../src/config.js';
import { OpenAiCompatibleWriter, type WriterTuning, WriterError } from '../../../src/integrations/openai/chatCompletionsWriter.js';
import { failureOf } from '../../support/failure.js';
import { type FakeReply, FakeWriter } from '../fakes/openai.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// The writer model through the same cases as every family, against the OpenAI-compatible chat-completions fake. Its
// one adapter fails with WriterError alone, a ProviderError of the kind, status and wait the case expects: a refusal
// says the status, what the retries did not get past says so, and the wait a 429 asked for also shows in when the one
// retry arrives.

/** One retry, a tiny backoff and a short timeout: only a honoured hint explains a longer wait before the retry. */
const TUNING: WriterTuning = { timeoutMs: 300, retries: 1, backoffMs: 5 };
const SLACK_MS = 1500;
const prompt = { system: 'You are terse.', user: 'Summarise.', schemaName: 'summary', schema: z.object({ headline: z.string() }) };
const GOOD = { headline: 'Short' };

describe('writer contract: an OpenAI-compatible chat-completions server', () => {
  let fake: FakeWriter;
  let writer: OpenAiCompatibleWriter;
  beforeAll(async () => {
    fake = await FakeWriter.start();
    writer = new OpenAiCompatibleWriter({ baseUrl: fake.baseUrl, apiKey: 'sk-writer', model: 'local-model' }, TUNING);
    return async () => {
      await writer.close();
      await fake.close();
    };
  });
  /** Every attempt gets `reply`; the arrival time of each is kept. */
  const everyAttempt = (reply: () => FakeReply): number[] => {
    const arrivals: number[] = [];
    fake.reset();
    const answer = () => (arrivals.push(performance.now()), reply());
    fake.reply(answer, answer);
    return arrivals;
  };
  const openAiError = (status: number, message: string, headers?: Record<string, string>): FakeReply => ({ status, body: { error: { message, type: 'requests' } }, ...(headers ? { headers } : {}) });

  it('answers the structured value', async () => {
    fake.reset();
    fake.reply({ content: GOOD });
    expect(await writer.structured(prompt)).toEqual(GOOD);
  });

  it.each([401, 403])('is an auth failure for a %i, without a retry', async (status) => {
    const arrivals = everyAttempt(() => openAiError(status, 'Incorrect API key provided.'));
    const error = await failureOf(writer.structured(prompt), WriterError);
    expectProviderError(error, { kind: 'auth', status });
    expect(error.message).toContain(`refused the request: ${fake.baseUrl}/chat/completions answered ${status}`);
    expect(arrivals).toHaveLength(1);
  });

  it.each(retryHints({ seconds: 1, dateSeconds: 2, ms: 400 }))('fails for a 429 with $name, retried after the wait it asked for', async (hint) => {
    const arrivals = everyAttempt(() => openAiError(429, 'Rate limit reached.', hint.headers(Date.now())));
    const error = await failureOf(writer.structured(prompt), WriterError);
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: hint.waitMs });
    expect(error.message).toContain('kept failing after 2 attempts');
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(hint.waitMs.min - 50);
    expect(arrivals[1]! - arrivals[0]!).toBeLessThan(hint.waitMs.max + SLACK_MS);
  });

  it('fails for a 5xx, after its retry', async () => {
    const arrivals = everyAttempt(() => openAiError(503, 'The server is overloaded.'));
    const error = await failureOf(writer.structured(prompt), WriterError);
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect(error.message).toContain('answered 503');
    expect(arrivals).toHaveLength(2);
  });

  it('fails when no answer comes in time, after its retry', async () => {
    everyAttempt(() => ({ hang: true }));
    const error = await failureOf(writer.structured(prompt), WriterError);
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: true });
    expect(error.message).toContain('did not answer within 0.3 seconds');
    expect(fake.requests).toHaveLength(2);
  });

  it('reads an answer with fields it does not know as before', async () => {
    fake.reset();
    fake.reply({ content: GOOD });
    fake.changeAnswers(withUnknownFields);
    expect(await writer.structured(prompt)).toEqual(GOOD);
  });

  it('is a bad answer for an answer without choices', async () => {
    fake.reset();
    fake.changeAnswers((completion) => withoutField(completion, 'choices'));
    const error = await failureOf(writer.structured(prompt), WriterError);
    expectProviderError(error, { kind: 'bad_answer', status: 200 });
    expect(error.message).toContain('answered 200 without choices[0].message');
  });

  it('is not configured without WRITER_BASE_URL and WRITER_MODEL', () => {
    expect(loadConfig({}).writer).toBeUndefined();
    expect(loadConfig({ WRITER_BASE_URL: fake.baseUrl, WRITER_MODEL: 'local-model' }).writer).toBeDefined();
  });
});
