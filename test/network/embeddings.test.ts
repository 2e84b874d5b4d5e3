import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine } from '../../src/network/matching.js';
import { OpenAiCompatibleWriter, WriterError } from '../../src/integrations/openai/chatCompletionsWriter.js';
import { FakeWriter } from '../integrations/fakes/openai.js';

describe('embeddings through the writer provider (OpenAI-compatible POST /embeddings)', () => {
  let fake: FakeWriter;
  beforeAll(async () => {
    fake = await FakeWriter.start();
  });
  afterAll(() => fake.close());

  it('sends { model, input } and returns one vector per text in input order, counting the tokens read', async () => {
    const writer = new OpenAiCompatibleWriter({ baseUrl: fake.baseUrl, apiKey: 'sk-x', model: 'chat-1', embeddingModel: 'embed-1' }, { retries: 0, timeoutMs: 2000 });
    const usage: number[] = [];
    const texts = ['dental crm reminders', 'dental crm reminders crm', 'diesel turbo injector'];
    const vectors = await writer.embed(texts, { add: (u) => usage.push(u.promptTokens, u.completionTokens) });
    expect(fake.embeddingRequests.at(-1)).toEqual({ model: 'embed-1', input: texts });
    expect(vectors).toHaveLength(3);
    // The fake answers in reverse order: the client puts them back by index.
    expect(cosine(vectors[0]!, vectors[1]!)).toBeGreaterThan(0.8);
    expect(cosine(vectors[0]!, vectors[2]!)).toBeLessThan(0.3);
    expect(usage).toEqual([10, 0]);
    await writer.close();
  });

  it('refuses without an embedding model, naming the setting, and sends nothing', async () => {
    const writer = new OpenAiCompatibleWriter({ baseUrl: fake.baseUrl, apiKey: undefined, model: 'chat-1' }, { retries: 0 });
    const sent = fake.embeddingRequests.length;
    await expect(writer.embed(['a text'])).rejects.toThrow(new WriterError('no embedding model is configured: the operator sets WRITER_EMBEDDING_MODEL'));
    expect(fake.embeddingRequests.length).toBe(sent);
    await writer.close();
  });
});
