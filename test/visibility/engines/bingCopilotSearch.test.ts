import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BingCopilotSearchEngine } from '../../../src/integrations/microsoft/bingCopilotSearch.js';
import { FakeBingCopilot } from '../../integrations/fakes/microsoft.js';
import { failure, TUNING } from './support.js';

const en = { locale: 'en' };

for (const flavour of ['serpapi', 'searchapi'] as const) {
  describe(`Copilot through a ${flavour === 'serpapi' ? 'SerpApi' : 'SearchApi'}-compatible engine=bing_copilot endpoint`, () => {
    let fake: FakeBingCopilot;
    let engine: BingCopilotSearchEngine;
    beforeAll(async () => {
      fake = await FakeBingCopilot.start(flavour);
      engine = new BingCopilotSearchEngine({ baseUrl: fake.baseUrl, apiKey: 'copilot-key', perMinute: 60 }, TUNING);
    });
    afterEach(() => fake.reset());
    afterAll(async () => {
      await engine.close();
      await fake.close();
    });

    it('GETs /search with engine=bing_copilot, the query and the key', async () => {
      await engine.ask('best crm for agencies', en);
      const [request] = fake.requests;
      expect(request!.method).toBe('GET');
      expect(Object.fromEntries(fake.params(request!))).toEqual({ engine: 'bing_copilot', q: 'best crm for agencies', api_key: 'copilot-key' });
    });

    it('reads the answer text and its references, in order, as the citations', async () => {
      fake.answer({
        text: 'Acme CRM suits agencies.\nClient portals\nRetainer billing',
        citations: [
          { url: 'https://www.acme.example/agencies', title: 'Acme for agencies' },
          { url: 'https://reviews.example/crm', title: 'Best CRMs' },
        ],
      });
      const answer = await engine.ask('best crm for agencies', en);
      expect(answer.text).toContain('Acme CRM suits agencies.');
      expect(answer.text).toContain('Retainer billing');
      expect(answer.citations).toEqual([
        { url: 'https://www.acme.example/agencies', domain: 'acme.example', title: 'Acme for agencies', rank: 1 },
        { url: 'https://reviews.example/crm', domain: 'reviews.example', title: 'Best CRMs', rank: 2 },
      ]);
      expect(answer.model).toBe('bing_copilot');
      expect(answer.notShown).toBeUndefined();
    });

    it('keeps an answer without references, with no citations', async () => {
      fake.answer({ text: 'A CRM keeps customer records.' });
      expect(await engine.ask('what is a crm', en)).toMatchObject({ text: 'A CRM keeps customer records.', citations: [] });
    });

    it('is "not shown" when Copilot gives no answer to the query', async () => {
      fake.answer({ text: '' });
      expect(await engine.ask('zzqx', en)).toMatchObject({ text: '', citations: [], notShown: true });
    });

    it('fails on a refused key without retrying, and is rate_limited when every attempt answers 429', async () => {
      fake.reply({ status: 401, body: { error: 'Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key' } });
      const refused = await failure(engine.ask('crm', en));
      expect(refused.errorClass).toBe('provider_error');
      expect(refused.message).toContain('Invalid API key');
      expect(fake.requests).toHaveLength(1);
      fake.reply(...Array.from({ length: 3 }, () => ({ status: 429, body: { error: 'Your account has run out of searches.' } })));
      expect((await failure(engine.ask('crm', en))).errorClass).toBe('rate_limited');
    });

    it('fails on an error reported inside HTTP 200, never as not shown', async () => {
      fake.reply({ status: 200, body: { search_metadata: { status: 'Error' }, error: 'Bing Copilot is temporarily unavailable.' } });
      const error = await failure(engine.ask('crm', en));
      expect(error.errorClass).toBe('provider_error');
      expect(error.message).toContain('temporarily unavailable');
    });
  });
}
