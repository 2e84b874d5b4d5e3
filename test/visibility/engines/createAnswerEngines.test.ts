import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { onlyEngineErrors } from '../../../src/visibility/engines/concurrency.js';
import { EngineError } from '../../../src/visibility/engines/engine.js';
import { createAnswerEngines } from '../../../src/visibility/engines/index.js';
import { FakeBingCopilot } from '../../integrations/fakes/microsoft.js';
import { createSerpClient } from '../../../src/integrations/dataforseo/serp.js';
import { FakeAnthropic } from '../../integrations/fakes/anthropic.js';
import { FakeDataForSeo } from '../../integrations/fakes/dataforseo/serp.js';
import { FakeGemini } from '../../integrations/fakes/google/gemini.js';
import { FakeOpenAi } from '../../integrations/fakes/openai.js';
import { FakePerplexity } from '../../integrations/fakes/perplexity.js';
import { failure, TUNING } from './support.js';
import { MemoryLimiterStore } from '../../../src/limits/memoryStore.js';

describe('createAnswerEngines', () => {
  let openai: FakeOpenAi;
  let perplexity: FakePerplexity;
  let gemini: FakeGemini;
  let anthropic: FakeAnthropic;
  let dataForSeo: FakeDataForSeo;
  let env: Record<string, string>;
  beforeAll(async () => {
    [openai, perplexity, gemini, anthropic, dataForSeo] = await Promise.all([FakeOpenAi.start(), FakePerplexity.start(), FakeGemini.start(), FakeAnthropic.start(), FakeDataForSeo.start()]);
    env = {
      ENGINE_CHATGPT_BASE_URL: openai.baseUrl,
      ENGINE_CHATGPT_API_KEY: 'sk-openai',
      ENGINE_PERPLEXITY_BASE_URL: perplexity.baseUrl,
      ENGINE_PERPLEXITY_API_KEY: 'pplx-key',
      ENGINE_GEMINI_BASE_URL: gemini.baseUrl,
      ENGINE_GEMINI_API_KEY: 'gemini-key',
      ENGINE_GEMINI_MODEL: 'gemini-2.5-pro',
      ENGINE_CLAUDE_BASE_URL: anthropic.baseUrl,
      ENGINE_CLAUDE_API_KEY: 'sk-ant-key',
    };
  });
  afterEach(() => {
    for (const fake of [openai, perplexity, gemini, anthropic, dataForSeo]) fake.reset();
  });
  afterAll(async () => {
    await Promise.all([openai, perplexity, gemini, anthropic, dataForSeo].map((fake) => fake.close()));
  });

  it('builds only the engines that are configured', () => {
    expect(createAnswerEngines(loadConfig({}), undefined, TUNING, new MemoryLimiterStore())).toEqual({});
    const engines = createAnswerEngines(loadConfig({ ENGINE_CHATGPT_API_KEY: 'sk-openai', ENGINE_CLAUDE_API_KEY: 'sk-ant' }), undefined, TUNING, new MemoryLimiterStore());
    expect(Object.keys(engines).sort()).toEqual(['chatgpt', 'claude']);
  });

  it('asks each API engine through its own provider with the configured model and key', async () => {
    const engines = createAnswerEngines(loadConfig(env), undefined, TUNING, new MemoryLimiterStore());
    expect(Object.keys(engines)).toEqual(['chatgpt', 'perplexity', 'gemini', 'claude']);
    const cited = { text: 'Acme CRM.', citations: [{ url: 'https://www.acme.example/' }] };
    for (const fake of [openai, perplexity, gemini, anthropic]) fake.answer(cited);
    for (const engine of Object.values(engines)) {
      const answer = await engine.ask('best crm', { locale: 'en-US' });
      expect(answer.citations.map((c) => c.domain), engine.name).toEqual(['acme.example']);
    }
    expect(openai.requests[0]!.body.model).toBe('gpt-4.1-mini');
    expect(perplexity.requests[0]!.body.model).toBe('sonar');
    expect(gemini.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(anthropic.requests[0]!.body.model).toBe('claude-sonnet-4-5');
  });

  it('keeps at most `concurrency` calls in flight per provider; the others wait their turn', async () => {
    const engines = createAnswerEngines(loadConfig(env), undefined, { ...TUNING, concurrency: 2 }, new MemoryLimiterStore());
    const release = openai.hold();
    const answers = Promise.all(Array.from({ length: 5 }, () => engines.chatgpt!.ask('best crm', { locale: 'en' })));
    await vi.waitFor(() => expect(openai.requests).toHaveLength(2));
    // Without the limit the other three would be at the fake by now.
    await sleep(100);
    expect(openai.requests).toHaveLength(2);
    release();
    expect(await answers).toHaveLength(5);
    expect(openai.maxInFlight).toBe(2);
  });

  it('starts at most ENGINE_<NAME>_RPM calls a minute, counted in the store every instance shares', async () => {
    // Two instances on one store; 120 a minute is counted as 2 a second.
    const store = new MemoryLimiterStore();
    const config = loadConfig({ ...env, ENGINE_PERPLEXITY_RPM: '120' });
    const instances = [createAnswerEngines(config, undefined, TUNING, store), createAnswerEngines(config, undefined, TUNING, store)];
    const started = performance.now();
    const answers = Promise.all(instances.flatMap((engines) => Array.from({ length: 3 }, () => engines.perplexity!.ask('best crm', { locale: 'en' }))));
    await vi.waitFor(() => expect(perplexity.requests).toHaveLength(2));
    await sleep(300);
    expect(perplexity.requests).toHaveLength(2);
    expect(await answers).toHaveLength(6);
    // Six calls at two a second: the last two start in the third second.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1900);
    expect(() => loadConfig({ ...env, ENGINE_PERPLEXITY_RPM: '0' })).toThrow('ENGINE_PERPLEXITY_RPM: must be a whole number of requests per minute from 1 to 100000, got "0"');
  });

  it('adds Google AI Overviews and Copilot from the SERP provider: the answer and its references, or "not shown" when none shows', async () => {
    const config = loadConfig({ ...env, ...dataForSeo.env() });
    const engines = createAnswerEngines(config, createSerpClient(config.serp, TUNING, new MemoryLimiterStore()), TUNING, new MemoryLimiterStore());
    expect(Object.keys(engines)).toEqual(['chatgpt', 'perplexity', 'gemini', 'claude', 'google_ai_overview', 'copilot']);
    expect([engines.google_ai_overview!.fromSerp, engines.copilot!.fromSerp]).toEqual(['google', 'bing']);
    dataForSeo.serp('google', 'what is a crm', { aiOverview: { markdown: 'A CRM keeps customer records. Acme sells one.', references: [{ url: 'https://www.acme.example/what-is-crm', title: 'What is a CRM' }] } });
    const shown = await engines.google_ai_overview!.ask('what is a crm', { locale: 'en' });
    expect(shown.text).toContain('Acme sells one.');
    expect(shown.citations).toEqual([{ url: 'https://www.acme.example/what-is-crm', domain: 'acme.example', title: 'What is a CRM', rank: 1 }]);
    const none = await engines.google_ai_overview!.ask('crm login', { locale: 'en' });
    expect(none).toMatchObject({ text: '', citations: [], notShown: true });
  });

  it('asks Copilot on its own when ENGINE_COPILOT_* is set, even with a SERP provider', async () => {
    const copilot = await FakeBingCopilot.start('searchapi');
    try {
      const config = loadConfig({ ...env, ...dataForSeo.env(), ENGINE_COPILOT_BASE_URL: copilot.baseUrl, ENGINE_COPILOT_API_KEY: 'searchapi-key' });
      const engines = createAnswerEngines(config, createSerpClient(config.serp, TUNING, new MemoryLimiterStore()), TUNING, new MemoryLimiterStore());
      expect(engines.copilot!.fromSerp).toBeUndefined();
      copilot.answer({ text: 'Acme CRM.', citations: [{ url: 'https://acme.example/' }] });
      expect((await engines.copilot!.ask('best crm', { locale: 'en' })).citations).toHaveLength(1);
      expect(copilot.requests).toHaveLength(1);
      expect(dataForSeo.requests.filter((r) => r.path.includes('/bing/'))).toEqual([]);
    } finally {
      await copilot.close();
    }
  });

  it('turns any other error into an EngineError, so a failed check always has a class', async () => {
    const engine = onlyEngineErrors({
      name: 'copilot',
      ask: () => Promise.reject(new TypeError('fetch failed')),
    });
    const error = await failure(engine.ask('best crm', { locale: 'en' }));
    expect(error.errorClass).toBe('provider_error');
    expect(error.message).toBe('copilot: fetch failed');
    const refused = onlyEngineErrors({ name: 'copilot', ask: () => Promise.reject(new EngineError('Copilot', 'refused', 'no')) });
    expect((await failure(refused.ask('best crm', { locale: 'en' }))).errorClass).toBe('refused');
  });
});
