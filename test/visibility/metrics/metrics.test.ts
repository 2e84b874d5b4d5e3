import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { wilsonInterval } from '../../../src/visibility/metrics/wilson.js';
import { TestService, START_TIME, type TestWorkspace } from '../../support/harness.js';
import type { citationSourcesReport, sentimentReport, shareOfVoiceReport, visibilityScoreReport, visibilityTrendReport } from '../../../tools/visibility/outputs.js';
import { Seeder } from './seed.js';

/**
 * A small fixed data set, hand-computed. Brand "Acme Analytics" (acme.example); competitors Globex (globex.example)
 * and Initech (initech.example). Now: Saturday 2026-11-21 09:00 UTC.
 *
 * 2026-11-01 perplexity q1  "Acme Analytics ..."                    brand mentioned              (30-day window only)
 * 2026-11-16 chatgpt    q1  cites acme.example/blog, wiki.org       brand cited (positive 80), Globex mentioned
 * 2026-11-16 chatgpt    q2  cites globex.example                    brand none, Globex cited
 * 2026-11-16 chatgpt    q1  timeout                                 failed
 * 2026-11-20 perplexity q1  no citations                            brand mentioned (neutral 50)
 * 2026-11-20 perplexity q2  cites docs.initech.example, wiki.org    brand none, Initech cited
 * 2026-11-20 gemini     q1  cites www.acme.example/x                brand cited (negative 20), Globex mentioned
 * 2026-11-20 copilot    q2  Bing showed no Copilot answer           not shown: in no rate
 *
 * Last 7 days: 5 answers checked, 1 failed, 1 not shown. Brand named in 3 (2 cited, 1 mentioned): mention rate 3/5.
 * Answers with citations 4, citing the brand 2: citation rate 2/4. Globex named in 3, Initech in 1: share of voice 3/7.
 * Sentiment 80, 50, 20: mean 50, component 0.5. Score = 100 x (0.4 x 0.6 + 0.3 x 3/7 + 0.2 x 0.5 + 0.1 x 0.5) = 51.857 -> 51.9.
 */
describe('visibility metrics', () => {
  let t: TestService;
  let ws: TestWorkspace;
  let globex: string;
  let initech: string;

  beforeAll(async () => {
    t = await TestService.start({ env: { ENGINE_CHATGPT_API_KEY: 'k', ENGINE_PERPLEXITY_API_KEY: 'k', ENGINE_GEMINI_API_KEY: 'k' } });
    ws = await t.workspace();
    const seed = new Seeder(t, ws);
    const q1 = await seed.query('best analytics tool');
    const q2 = await seed.query('analytics for startups');
    globex = await seed.competitor('Globex', 'https://globex.example');
    initech = await seed.competitor('Initech', 'https://www.initech.example');
    await seed.answer('2026-11-01T10:00:00Z', 'perplexity', q1, 'Acme Analytics is one option.');
    await seed.answer('2026-11-16T10:00:00Z', 'chatgpt', q1, 'Acme Analytics is the best. Globex is fine.', ['https://acme.example/blog', 'https://wiki.org/a'], {
      brand: { label: 'positive', score: 80 },
    });
    await seed.answer('2026-11-16T10:00:01Z', 'chatgpt', q2, 'Globex leads the market.', ['https://globex.example/pricing']);
    await seed.failure('2026-11-16T10:00:02Z', 'chatgpt', q1);
    await seed.answer('2026-11-20T10:00:00Z', 'perplexity', q1, 'Try Acme Analytics.', [], { brand: { label: 'neutral', score: 50 } });
    await seed.answer('2026-11-20T10:00:01Z', 'perplexity', q2, 'Initech is solid.', ['https://docs.initech.example/start', 'https://wiki.org/b']);
    await seed.answer('2026-11-20T10:00:02Z', 'gemini', q1, 'Avoid Acme Analytics, Globex is better.', ['https://www.acme.example/x'], { brand: { label: 'negative', score: 20 } });
    await seed.notShown('2026-11-20T10:00:03Z', 'copilot', q2);
    t.clock.set(START_TIME);
  });
  afterAll(() => t.close());

  const get = async <Report extends z.ZodType>(path: string, input: Record<string, unknown> = {}) => {
    const answer = await t.rest(ws.key, 'GET', path, input);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as z.output<Report>;
  };
  const rateOf = (count: number, of: number) => ({ rate: Number((count / of).toFixed(4)), interval: wilsonInterval(count, of), count, of });

  it('get_visibility_score: the composite, its components with intervals, and the counts behind them', async () => {
    const score = await get<typeof visibilityScoreReport>('/api/v1/visibility/score', { days: '7' });
    expect(score).toMatchObject({
      version: '1',
      weights: { mentionRate: 0.4, shareOfVoice: 0.3, citationRate: 0.2, sentiment: 0.1 },
      window: { days: 7, from: '2026-11-15', to: '2026-11-21' },
      model: null,
      competitorsTracked: 2,
      score: 51.9,
      basedOn: ['mentionRate', 'shareOfVoice', 'citationRate', 'sentiment'],
      missing: [],
      reason: null,
      components: {
        mentionRate: rateOf(3, 5),
        citationRate: rateOf(2, 4),
        shareOfVoice: rateOf(3, 7),
        sentiment: { value: 0.5, interval: wilsonInterval(1.5, 3), of: 3 },
      },
      sampleSize: { answersChecked: 5, failedChecks: 1, noAnswerShown: 1, answersWithCitations: 4, answersNamingBrand: 3, answersWithSentiment: 3, competitorMentions: 4 },
    });
    expect(score.formula).toContain('0.40 x mentionRate');
    expect(score.definition).toContain('version 1');
    expect(score.range!.low).toBeLessThan(51.9);
    expect(score.range!.high).toBeGreaterThan(51.9);

    const byEngine = Object.fromEntries(score.byEngine.map((e) => [e.engine, e]));
    expect(Object.keys(byEngine)).toEqual(['chatgpt', 'perplexity', 'gemini', 'claude', 'google_ai_overview', 'copilot']);
    // chatgpt: 1 of 2 named (cited), 1 of 2 citing answers cite the brand, brand 1 vs Globex 2, sentiment 0.8.
    expect(byEngine.chatgpt).toMatchObject({ configured: true, score: 48, sampleSize: { answersChecked: 2, failedChecks: 1 }, components: { shareOfVoice: rateOf(1, 3) } });
    // perplexity: 1 of 2 named, 0 of 1 citing, brand 1 vs Initech 1, sentiment 0.5: 100 x (0.2 + 0.15 + 0 + 0.05).
    expect(byEngine.perplexity).toMatchObject({ configured: true, score: 40, components: { citationRate: rateOf(0, 1) } });
    // gemini: 1 of 1 cited, brand 1 vs Globex 1, sentiment 0.2: 100 x (0.4 + 0.15 + 0.2 + 0.02).
    expect(byEngine.gemini).toMatchObject({ configured: true, score: 77 });
    // Not configured and never checked: said so, never a zero.
    expect(byEngine.claude).toMatchObject({ configured: false, score: null, reason: expect.stringContaining('not configured') });
  });

  it('filters by model and widens with the window', async () => {
    const gemini = await get<typeof visibilityScoreReport>('/api/v1/visibility/score', { days: '7', model: 'gemini' });
    expect(gemini).toMatchObject({ model: 'gemini', score: 77, sampleSize: { answersChecked: 1 } });
    expect(gemini.byEngine.map((e: { engine: string }) => e.engine)).toEqual(['gemini']);
    // 30 days (the default) adds 1 November's mention: 4 of 6.
    const month = await get<typeof visibilityScoreReport>('/api/v1/visibility/score');
    expect(month).toMatchObject({ window: { days: 30, from: '2026-10-23', to: '2026-11-21' }, components: { mentionRate: rateOf(4, 6) } });
  });

  it('get_visibility_trend: one point per day with checks, with the composite of that day', async () => {
    const trend = await get<typeof visibilityTrendReport>('/api/v1/visibility/trend', { days: '30' });
    expect(trend.points.map((p: { date: string }) => p.date)).toEqual(['2026-11-01', '2026-11-16', '2026-11-20']);
    // 16 November is chatgpt alone (see byEngine above).
    expect(trend.points[1]).toMatchObject({
      mentionRate: rateOf(1, 2),
      citationRate: rateOf(1, 2),
      score: 48,
      sampleSize: { answersChecked: 2, failedChecks: 1, answersWithCitations: 2 },
    });
    // 20 November: named in 2 of 3, cited in 1 of 2 citing answers, brand 2 vs 2, sentiment (50 + 20) / 2:
    // 100 x (0.4 x 2/3 + 0.3 x 0.5 + 0.2 x 0.5 + 0.1 x 0.35) = 55.17.
    expect(trend.points[2]).toMatchObject({ mentionRate: rateOf(2, 3), citationRate: rateOf(1, 2), score: 55.2 });
    // 1 November: no citations, no competitor named, no sentiment: the mention rate alone (1 of 1).
    expect(trend.points[0]).toMatchObject({ score: 100, scoreBasedOn: ['mentionRate', 'shareOfVoice'], citationRate: { rate: null, interval: null, of: 0 } });
  });

  it('get_share_of_voice: each brand once per answer, brand first', async () => {
    const sov = await get<typeof shareOfVoiceReport>('/api/v1/visibility/share-of-voice', { days: '7' });
    expect(sov.sampleSize).toEqual({ answersChecked: 5, failedChecks: 1, noAnswerShown: 1, totalMentions: 7, competitorsTracked: 2 });
    expect(sov.subjects).toEqual([
      { subjectId: 'brand', name: 'Acme Analytics', isBrand: true, domain: 'acme.example', answersNaming: 3, cited: 2, mentioned: 1, share: rateOf(3, 7) },
      { subjectId: globex, name: 'Globex', isBrand: false, domain: 'globex.example', answersNaming: 3, cited: 1, mentioned: 2, share: rateOf(3, 7) },
      { subjectId: initech, name: 'Initech', isBrand: false, domain: 'initech.example', answersNaming: 1, cited: 1, mentioned: 0, share: rateOf(1, 7) },
    ]);
  });

  it('get_citation_sources: domains by answers citing them, own and competitors flagged', async () => {
    const sources = await get<typeof citationSourcesReport>('/api/v1/visibility/sources', { days: '7' });
    expect(sources.sampleSize).toEqual({ answersChecked: 5, answersWithCitations: 4, distinctDomains: 4 });
    expect(sources.sources).toEqual([
      { domain: 'acme.example', answers: 2, share: rateOf(2, 4), isBrand: true, competitorId: null, competitorName: null },
      { domain: 'wiki.org', answers: 2, share: rateOf(2, 4), isBrand: false, competitorId: null, competitorName: null },
      { domain: 'docs.initech.example', answers: 1, share: rateOf(1, 4), isBrand: false, competitorId: initech, competitorName: 'Initech' },
      { domain: 'globex.example', answers: 1, share: rateOf(1, 4), isBrand: false, competitorId: globex, competitorName: 'Globex' },
    ]);
    const chatgpt = await get<typeof citationSourcesReport>('/api/v1/visibility/sources', { days: '7', model: 'chatgpt' });
    expect(chatgpt.sources.map((s: { domain: string }) => s.domain)).toEqual(['acme.example', 'globex.example', 'wiki.org']);
  });

  it('get_sentiment: shares of each label over answers naming the brand, and the mean score', async () => {
    const sentiment = await get<typeof sentimentReport>('/api/v1/visibility/sentiment', { days: '7' });
    expect(sentiment.brand).toEqual({
      answersNaming: 3,
      answersWithSentiment: 3,
      positive: rateOf(1, 3),
      neutral: rateOf(1, 3),
      negative: rateOf(1, 3),
      meanScore: 50,
    });
    // Competitors are named but were never rated: no rates, no mean.
    expect(sentiment.competitors[0]).toMatchObject({ competitorId: globex, answersNaming: 3, answersWithSentiment: 0, positive: { rate: null }, meanScore: null });
  });

  it('leaves removed competitors out', async () => {
    await t.db.updateTable('competitors').set({ removed_at: t.clock.now() }).where('id', '=', initech).execute();
    try {
      const sov = await get<typeof shareOfVoiceReport>('/api/v1/visibility/share-of-voice', { days: '7' });
      expect(sov.subjects.map((s: { name: string }) => s.name)).toEqual(['Acme Analytics', 'Globex']);
      expect(sov.subjects[0]!.share).toEqual(rateOf(3, 6));
    } finally {
      await t.db.updateTable('competitors').set({ removed_at: null }).where('id', '=', initech).execute();
    }
  });

  it('refuses a window other than 7, 30 or 90 days, naming the field', async () => {
    const answer = await t.rest(ws.key, 'GET', '/api/v1/visibility/score', { days: '14' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('days: must be one of 7, 30, 90');
  });

  it('empty states: no checks yet means no numbers, and says so', async () => {
    const empty = await t.workspace();
    const call = async (path: string) => (await t.rest(empty.key, 'GET', path)).body.data as Record<string, unknown>;
    expect(await call('/api/v1/visibility/score')).toMatchObject({
      score: null,
      range: null,
      reason: expect.stringContaining('no answers checked'),
      components: { mentionRate: { rate: null, interval: null, count: 0, of: 0 } },
      sampleSize: { answersChecked: 0, failedChecks: 0 },
    });
    expect((await call('/api/v1/visibility/trend')).points).toEqual([]);
    expect((await call('/api/v1/visibility/share-of-voice')).subjects).toEqual([
      expect.objectContaining({ subjectId: 'brand', answersNaming: 0, share: { rate: null, interval: null, count: 0, of: 0 } }),
    ]);
    expect(await call('/api/v1/visibility/sources')).toMatchObject({ sources: [], sampleSize: { answersWithCitations: 0, distinctDomains: 0 } });
    expect((await call('/api/v1/visibility/sentiment')).brand).toMatchObject({ answersNaming: 0, meanScore: null, positive: { rate: null } });
  });
});
