import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAiCompatibleWriter, WriterError } from '../../src/integrations/openai/chatCompletionsWriter.js';
import type { WriterUsage } from '../../src/writer/model.js';
import { FakeWriter } from '../integrations/fakes/openai.js';

const answer = z.object({ headline: z.string(), points: z.array(z.string()) });
const prompt = { system: 'You are terse.', user: 'Summarise.', schemaName: 'summary', schema: answer };
const GOOD = { headline: 'Short', points: ['one'] };

describe('OpenAiCompatibleWriter against a local OpenAI-compatible server', () => {
  let fake: FakeWriter;
  let writer: OpenAiCompatibleWriter;
  beforeAll(async () => {
    fake = await FakeWriter.start();
    writer = new OpenAiCompatibleWriter({ baseUrl: fake.baseUrl, apiKey: 'sk-secret', model: 'local-model' }, { backoffMs: 5, retries: 2, timeoutMs: 2000 });
  });
  afterEach(() => fake.reset());
  afterAll(async () => {
    await writer.close();
    await fake.close();
  });

  it('asks for the schema with response_format json_schema (strict), sends the bearer key, and returns the validated answer', async () => {
    fake.reply({ content: GOOD });
    expect(await writer.structured(prompt)).toEqual(GOOD);
    const [request] = fake.requests;
    expect(request!.model).toBe('local-model');
    expect(request!.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Summarise.' },
    ]);
    expect(request!.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'summary',
        strict: true,
        schema: {
          type: 'object',
          properties: { headline: { type: 'string' }, points: { type: 'array', items: { type: 'string' } } },
          required: ['headline', 'points'],
          additionalProperties: false,
        },
      },
    });
  });

  it('sends the API key as a bearer token, and none when no key is configured', async () => {
    const seen: Array<string | undefined> = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: JSON.stringify(GOOD) } }] }));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const keyless = new OpenAiCompatibleWriter({ baseUrl, apiKey: undefined, model: 'local-model' });
    const keyed = new OpenAiCompatibleWriter({ baseUrl, apiKey: 'sk-secret', model: 'local-model' });
    try {
      await keyed.structured(prompt);
      await keyless.structured(prompt);
      expect(seen).toEqual(['Bearer sk-secret', undefined]);
    } finally {
      await Promise.all([keyed.close(), keyless.close()]);
      server.close();
    }
  });

  it('adds the tokens of every request to the meter', async () => {
    fake.reply({ content: 'not json' }, { content: GOOD });
    const spent: WriterUsage[] = [];
    await writer.structured(prompt, { add: (usage) => spent.push(usage) });
    expect(spent).toHaveLength(2);
    for (const usage of spent) {
      expect(usage.promptTokens).toBeGreaterThan(0);
      expect(usage.completionTokens).toBeGreaterThan(0);
    }
  });

  it('waits as long as Retry-After says after a 429, then succeeds', async () => {
    const arrivals: number[] = [];
    fake.reply(
      () => {
        arrivals.push(Date.now());
        return { status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '1' } };
      },
      () => {
        arrivals.push(Date.now());
        return { content: GOOD };
      },
    );
    expect(await writer.structured(prompt)).toEqual(GOOD);
    expect(fake.requests).toHaveLength(2);
    // The configured backoff is 5 ms: only the server's Retry-After explains a second's wait.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('retries 5xx answers a bounded number of times, then fails naming the status and the server message', async () => {
    const failure = { status: 503, body: { error: { message: 'model is loading' } } };
    fake.reply(failure, failure, failure, { content: GOOD });
    const error = await writer.structured(prompt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriterError);
    expect((error as Error).message).toMatch(/kept failing after 3 attempts: .*answered 503: model is loading/);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up on a request that does not answer within the timeout, and retries it', async () => {
    const impatient = new OpenAiCompatibleWriter({ baseUrl: fake.baseUrl, apiKey: undefined, model: 'local-model' }, { backoffMs: 5, retries: 1, timeoutMs: 200 });
    fake.reply({ hang: true }, { content: GOOD });
    try {
      expect(await impatient.structured(prompt)).toEqual(GOOD);
      expect(fake.requests).toHaveLength(2);
      fake.reply({ hang: true }, { hang: true });
      await expect(impatient.structured(prompt)).rejects.toThrow(/kept failing after 2 attempts/);
    } finally {
      await impatient.close();
    }
  });

  it('does not retry a 4xx other than 429', async () => {
    fake.reply({ status: 400, body: { error: { message: 'unknown model local-model' } } }, { content: GOOD });
    await expect(writer.structured(prompt)).rejects.toThrow(/refused the request: .*answered 400: unknown model local-model/);
    expect(fake.requests).toHaveLength(1);
  });

  it('asks once more with the reason when the answer does not match the schema', async () => {
    fake.reply({ content: { headline: 'Short' } }, { content: GOOD });
    expect(await writer.structured(prompt)).toEqual(GOOD);
    expect(fake.requests).toHaveLength(2);
    const retry = fake.requests[1]!.messages;
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: JSON.stringify({ headline: 'Short' }) });
    expect(retry.at(-1)!.content).toMatch(/not valid: points: /);
  });

  it('fails with the reason when the second answer does not match either', async () => {
    fake.reply({ content: { headline: 3 } }, { content: 'Sorry, here is prose.' });
    await expect(writer.structured(prompt)).rejects.toThrow("the writer model's answer did not match the summary schema twice: it is not JSON");
    expect(fake.requests).toHaveLength(2);
  });

  it('says when an answer was cut off at the token limit', async () => {
    fake.reply({ content: '{"headline": "Sh', finishReason: 'length' }, { content: '{"headline": "Sh', finishReason: 'length' });
    await expect(writer.structured(prompt)).rejects.toThrow(/cut off at the token limit/);
  });

  it('reports a refusal without asking again', async () => {
    fake.reply({ status: 200, body: { choices: [{ message: { content: null, refusal: 'I cannot help with that.' }, finish_reason: 'stop' }] } });
    await expect(writer.structured(prompt)).rejects.toThrow('the writer model refused: I cannot help with that.');
    expect(fake.requests).toHaveLength(1);
  });
});
