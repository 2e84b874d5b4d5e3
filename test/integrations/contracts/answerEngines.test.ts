import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { ClaudeEngine } from '../../../src/integrations/anthropic/claudeEngine.js';
import { GeminiEngine } from '../../../src/integrations/google/geminiEngine.js';
import { BingCopilotSearchEngine } from '../../../src/integrations/microsoft/bingCopilotSearch.js';
import { OpenAiResponsesEngine } from '../../../src/integrations/openai/chatgptEngine.js';
import { PerplexityEngine } from '../../../src/integrations/perplexity/perplexityEngine.js';
import { MemoryLimiterStore } from '../../../src/limits/memoryStore.js';
import { type AnswerEngine, EngineError, type EngineName } from '../../../src/visibility/engines/engine.js';
import { createAnswerEngines } from '../../../src/visibility/engines/index.js';
import type { EngineTuning } from '../../../src/visibility/engines/providerHttp.js';
import { failureOf } from '../../support/failure.js';
import { FakeAnthropic } from '../fakes/anthropic.js';
import type { FakeProvider, RawReply } from '../fakes/answerEngineServer.js';
import { FakeGemini } from '../fakes/google/gemini.js';
import { FakeBingCopilot } from '../fakes/microsoft.js';
import { FakeOpenAi } from '../fakes/openai.js';
import { FakePerplexity } from '../fakes/perplexity.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// Every answer engine with its own API through the same cases, against its fake, through AnswerEngine and the
// EngineError each adapter throws (errorClass: timeout, rate_limited, provider_error, refused, bad_response), each a
// ProviderError of the kind, status and wait the case expects; that a retry hint is honoured also shows in when the
// one retry arrives.

/** One retry, a tiny backoff and a short timeout: only a honoured hint explains a longer wait before the retry. */
const TUNING: EngineTuning = { timeoutMs: 300, retries: 1, backoffMs: 5, concurrency: 4 };
/** Time the retry may take beyond the wait asked for, on a busy machine. */
const SLACK_MS = 1500;

/** What the contract uses of an engine's fake, whatever the request body its provider takes. */
type EngineFake = Pick<FakeProvider<unknown>, 'baseUrl' | 'answer' | 'changeAnswers' | 'reset' | 'close'> & {
  readonly requests: readonly unknown[];
  reply(...replies: Array<RawReply | (() => RawReply)>): void;
};

interface EngineContract {
  name: string;
  engineName: EngineName;
  start(): Promise<EngineFake>;
  engine(baseUrl: string): AnswerEngine & { close(): Promise<void> };
  /** An error answer in the provider's words. */
  error(status: number, message: string, headers?: Record<string, string>): RawReply;
  /** How the answer is broken for the bad-answer case, and what breaks it. */
  broken: { how: string; change: (payload: unknown) => unknown };
  /** The settings that configure this engine alone. */
  env: Record<string, string>;
  /** Google's 429 carries the wait in a google.rpc.RetryInfo detail. */
  retryInfo?: boolean;
}

const openAiError = (status: number, message: string, headers?: Record<string, string>): RawReply => ({ status, body: { error: { message, type: 'requests' } }, ...(headers ? { headers } : {}) });
const missing = (field: string) => ({ how: `without ${field}`, change: (payload: unknown) => withoutField(payload, field) });

const CONTRACTS: EngineContract[] = [
  {
    name: 'ChatGPT (OpenAI Responses)',
    engineName: 'chatgpt',
    start: () => FakeOpenAi.start(),
    engine: (baseUrl) => new OpenAiResponsesEngine({ baseUrl, apiKey: 'sk-openai', model: 'gpt-4.1-mini', perMinute: 60 }, TUNING),
    error: openAiError,
    broken: missing('output'),
    env: { ENGINE_CHATGPT_API_KEY: 'sk-openai' },
  },
  {
    name: 'Perplexity (Sonar)',
    engineName: 'perplexity',
    start: () => FakePerplexity.start(),
    engine: (baseUrl) => new PerplexityEngine({ baseUrl, apiKey: 'pplx-key', model: 'sonar', perMinute: 60 }, TUNING),
    error: openAiError,
    broken: missing('choices'),
    env: { ENGINE_PERPLEXITY_API_KEY: 'pplx-key' },
  },
  {
    name: 'Gemini (generateContent)',
    engineName: 'gemini',
    start: () => FakeGemini.start(),
    engine: (baseUrl) => new GeminiEngine({ baseUrl, apiKey: 'gemini-key', model: 'gemini-2.5-flash', perMinute: 60 }, TUNING),
    error: (status, message, headers) => ({ status, body: { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE' } }, ...(headers ? { headers } : {}) }),
    broken: missing('candidates'),
    env: { ENGINE_GEMINI_API_KEY: 'gemini-key' },
    retryInfo: true,
  },
  {
    name: 'Claude (Anthropic Messages)',
    engineName: 'claude',
    start: () => FakeAnthropic.start(),
    engine: (baseUrl) => new ClaudeEngine({ baseUrl, apiKey: 'sk-ant-key', model: 'claude-sonnet-4-5', perMinute: 60 }, TUNING),
    error: (status, message, headers) => ({ status, body: { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } }, ...(headers ? { headers } : {}) }),
    broken: missing('content'),
    env: { ENGINE_CLAUDE_API_KEY: 'sk-ant-key' },
  },
  ...(['serpapi', 'searchapi'] as const).map(
    (flavour): EngineContract => ({
      name: `Copilot (${flavour === 'serpapi' ? 'SerpApi' : 'SearchApi'} bing_copilot)`,
      engineName: 'copilot',
      start: () => FakeBingCopilot.start(flavour),
      engine: (baseUrl) => new BingCopilotSearchEngine({ baseUrl, apiKey: 'copilot-key', perMinute: 60 }, TUNING),
      error: (status, message, headers) => ({ status, body: { error: message }, ...(headers ? { headers } : {}) }),
      // Every field of these answers is optional (no text blocks means Copilot showed no answer): only a body that is not an object is unreadable.
      broken: { how: 'that is not an object', change: () => ['not', 'an', 'answer'] },
      env: { ENGINE_COPILOT_API_KEY: 'copilot-key' },
    }),
  ),
];

describe.each(CONTRACTS)('answer engine contract: $name', (contract) => {
  let fake: EngineFake;
  let engine: AnswerEngine & { close(): Promise<void> };
  beforeAll(async () => {
    fake = await contract.start();
    engine = contract.engine(fake.baseUrl);
    return async () => {
      await engine.close();
      await fake.close();
    };
  });
  const ask = () => {
    fake.reset();
    return engine.ask('best crm for agencies', { locale: 'en-US' });
  };
  /** Every attempt gets `reply`; the arrival time of each is kept. */
  const everyAttempt = (reply: () => RawReply): number[] => {
    const arrivals: number[] = [];
    fake.reset();
    const answer = () => (arrivals.push(performance.now()), reply());
    fake.reply(answer, answer);
    return arrivals;
  };
  const failure = (promise: Promise<unknown>) => failureOf(promise, EngineError);

  it('reads the answer and its citations', async () => {
    fake.reset();
    fake.answer({ text: 'Acme CRM suits agencies.', citations: [{ url: 'https://www.acme.example/crm', title: 'Acme CRM' }] });
    const answer = await engine.ask('best crm for agencies', { locale: 'en-US' });
    expect(answer.text).toContain('Acme CRM suits agencies.');
    expect(answer.citations.map((citation) => [citation.domain, citation.rank])).toEqual([['acme.example', 1]]);
  });

  it.each([401, 403])('is a provider_error of kind auth for a %i, without a retry', async (status) => {
    const arrivals = everyAttempt(() => contract.error(status, 'Invalid API key.'));
    const error = await failure(engine.ask('best crm', { locale: 'en-US' }));
    expectProviderError(error, { kind: 'auth', status });
    expect(error.errorClass).toBe('provider_error');
    expect(arrivals).toHaveLength(1);
  });

  it.each(retryHints({ seconds: 1, dateSeconds: 2, ms: 400 }))('is rate_limited for a 429 with $name, retried after the wait it asked for', async (hint) => {
    const arrivals = everyAttempt(() => contract.error(429, 'Rate limit reached.', hint.headers(Date.now())));
    const error = await failure(engine.ask('best crm', { locale: 'en-US' }));
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: hint.waitMs });
    expect(error.errorClass).toBe('rate_limited');
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(hint.waitMs.min - 50);
    expect(arrivals[1]! - arrivals[0]!).toBeLessThan(hint.waitMs.max + SLACK_MS);
  });

  it.runIf(contract.retryInfo === true)("is rate_limited for a 429 with Google's RetryInfo, retried after its delay", async () => {
    const arrivals = everyAttempt(() => {
      const reply = contract.error(429, 'You exceeded your current quota.') as { status: number; body: { error: Record<string, unknown> } };
      return { ...reply, body: { error: { ...reply.body.error, details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.4s' }] } } };
    });
    const error = await failure(engine.ask('best crm', { locale: 'en-US' }));
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: { min: 400, max: 400 } });
    expect(error.errorClass).toBe('rate_limited');
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(350);
  });

  it('is a provider_error for a 5xx, after its retry', async () => {
    const arrivals = everyAttempt(() => contract.error(503, 'The service is overloaded.'));
    const error = await failure(engine.ask('best crm', { locale: 'en-US' }));
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect(error.errorClass).toBe('provider_error');
    expect(arrivals).toHaveLength(2);
  });

  it('is a timeout when no answer comes in time, after its retry', async () => {
    everyAttempt(() => ({ hang: true }));
    const error = await failure(engine.ask('best crm', { locale: 'en-US' }));
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: true });
    expect(error.errorClass).toBe('timeout');
    expect(fake.requests).toHaveLength(2);
  });

  it('reads an answer with fields it does not know as before', async () => {
    const plain = await ask();
    fake.changeAnswers(withUnknownFields);
    const changed = await engine.ask('best crm for agencies', { locale: 'en-US' });
    expect({ ...changed, latencyMs: 0 }).toEqual({ ...plain, latencyMs: 0 });
  });

  it(`is a bad_response for an answer ${contract.broken.how}`, async () => {
    fake.reset();
    fake.changeAnswers(contract.broken.change);
    const error = await failure(engine.ask('best crm', { locale: 'en-US' }));
    expectProviderError(error, { kind: 'bad_answer' });
    expect(error.errorClass).toBe('bad_response');
  });

  it('is not configured, and never asked, without its settings', () => {
    const store = new MemoryLimiterStore();
    expect(createAnswerEngines(loadConfig({}), undefined, TUNING, store)[contract.engineName]).toBeUndefined();
    expect(Object.keys(createAnswerEngines(loadConfig(contract.env), undefined, TUNING, store))).toEqual([contract.engineName]);
  });
});
