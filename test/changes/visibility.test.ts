import { afterEach, describe, expect, it } from 'vitest';
import { BRAND, ChangeWorld, type RunPlan } from './support.js';

let world: ChangeWorld;
afterEach(() => world.close());

async function queries(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await world.query(`best crm for team ${i}`));
  return ids;
}

/** On ChatGPT, the first `named` queries' answers name the brand, the others name nobody. */
const mentionRun = (ids: readonly string[], named: number) => (plan: RunPlan) => {
  ids.forEach((id, i) => plan.answer('chatgpt', id, { names: i < named ? [BRAND.name] : [] }));
};

describe('visibility.rose and visibility.fell', () => {
  it('are found when the mention rate moves beyond the noise, overall and per engine, and the score with it', async () => {
    world = await ChangeWorld.open();
    const ids = await queries(20);
    const first = await world.run(mentionRun(ids, 16));
    // 16 of 20: Wilson 95 % [0.584, 0.9193]; 4 of 20: [0.0807, 0.416]. 0.416 < 0.584: the intervals do not overlap.
    const second = await world.run(mentionRun(ids, 4));
    const fell = await world.changes('visibility.fell');
    // Mention rate (all engines and ChatGPT, the only engine); no citations and no competitor: the score is 100 x the
    // mention rate with its interval as range, [58.4, 91.9] then [8.1, 41.6], apart too. The citation rate has no
    // answers with citations: nothing to compare.
    expect(fell.map((c) => c.title).sort()).toEqual([
      'Mention rate (all engines) fell from 80 % to 20 %',
      'Mention rate on ChatGPT fell from 80 % to 20 %',
      'Visibility score (all engines) fell from 80.0 to 20.0',
      'Visibility score on ChatGPT fell from 80.0 to 20.0',
    ]);
    const chatgpt = fell.find((c) => c.engine === 'chatgpt' && c.details.metric === 'mentionRate')!;
    expect(chatgpt).toMatchObject({ severity: 'warning', runId: second, query: null });
    expect(chatgpt.details).toEqual({
      metric: 'mentionRate',
      engine: 'chatgpt',
      before: { rate: 0.8, interval: { low: 0.584, high: 0.9193 }, count: 16, of: 20 },
      after: { rate: 0.2, interval: { low: 0.0807, high: 0.416 }, count: 4, of: 20 },
      runId: second,
      previousRunId: first,
    });
    expect(fell.find((c) => c.engine === 'chatgpt' && c.details.metric === 'score')!.details).toMatchObject({
      before: { score: 80, range: { low: 58.4, high: 91.9 }, answers: 20, answersNamingBrand: 16 },
      after: { score: 20, range: { low: 8.1, high: 41.6 }, answers: 20, answersNamingBrand: 4 },
    });

    // Back to 16 of 20: the same intervals the other way round.
    await world.run(mentionRun(ids, 16));
    expect((await world.changes('visibility.rose')).map((c) => c.title).sort()).toEqual([
      'Mention rate (all engines) rose from 20 % to 80 %',
      'Mention rate on ChatGPT rose from 20 % to 80 %',
      'Visibility score (all engines) rose from 20.0 to 80.0',
      'Visibility score on ChatGPT rose from 20.0 to 80.0',
    ]);
    // The job run again for the same run records nothing more.
    await world.detect(second);
    expect(await world.changes('visibility.fell')).toHaveLength(4);
  });

  it('are not found for a move of the same sample size inside the noise', async () => {
    world = await ChangeWorld.open();
    const ids = await queries(20);
    await world.run(mentionRun(ids, 12));
    // 12 of 20 [0.3866, 0.7812] then 10 of 20 [0.2993, 0.7007], and 8 of 20 [0.2188, 0.6134]: each overlaps the one before.
    await world.run(mentionRun(ids, 10));
    await world.run(mentionRun(ids, 8));
    expect(await world.changes()).toEqual([]);
  });

  it('compare only the cells both runs answered, and not failed checks or pages without an AI answer', async () => {
    world = await ChangeWorld.open();
    const ids = await queries(20);
    await world.run((plan) => {
      mentionRun(ids, 16)(plan);
      // Copilot answers in this run only, naming nobody: left out of the comparison.
      ids.forEach((id) => plan.answer('copilot', id));
    });
    await world.run((plan) => {
      // The 16 queries that named the brand fail on ChatGPT or show no answer on Copilot; the other 4 answer as before.
      ids.slice(0, 16).forEach((id) => plan.failure('chatgpt', id));
      ids.slice(0, 4).forEach((id) => plan.notShown('copilot', id));
      mentionRun(ids.slice(16), 0)(plan);
    });
    // Over every answer ChatGPT would be 16 of 20 [0.584, 0.9193] against 0 of 4 [0, 0.4899]: a fall. Over the cells
    // both runs answered (queries 17 to 20 on ChatGPT) it is 0 of 4 against 0 of 4: steady.
    expect(await world.changes()).toEqual([]);
  });

  it('apply the rule\u2019s threshold in percentage points', async () => {
    world = await ChangeWorld.open();
    await world.db.insertInto('alert_rules').values({ workspace_id: world.workspaceId, kind: 'visibility.fell', enabled: 1, threshold: 70, engines: null, query_ids: null, updated_at: 0 }).execute();
    const ids = await queries(20);
    await world.run(mentionRun(ids, 16));
    // A fall of 60 points (80 % to 20 %), beyond the noise but under the 70 points asked for.
    await world.run(mentionRun(ids, 4));
    expect(await world.changes('visibility.fell')).toEqual([]);
  });

  it('compare the citation rate over the answers with citations', async () => {
    world = await ChangeWorld.open();
    const ids = await queries(10);
    const cites = (cited: number) => (plan: RunPlan) =>
      ids.forEach((id, i) => plan.answer('perplexity', id, { urls: [i < cited ? `https://${BRAND.domain}/guide` : 'https://other.example/guide'] }));
    await world.run(cites(8));
    // 8 of 10 [0.4902, 0.9433] then 2 of 10 [0.0567, 0.5098]: they overlap (0.5098 > 0.4902), so no change.
    await world.run(cites(2));
    expect((await world.changes()).filter((c) => c.details.metric === 'citationRate')).toEqual([]);
    // 10 of 10 [0.7225, 1] after 2 of 10 [0.0567, 0.5098]: apart.
    await world.run(cites(10));
    const rose = (await world.changes('visibility.rose')).filter((c) => c.details.metric === 'citationRate' && c.engine === 'perplexity');
    expect(rose.map((c) => c.title)).toEqual(['Citation rate on Perplexity rose from 20 % to 100 %']);
    expect(rose[0]!.details).toMatchObject({ before: { count: 2, of: 10, interval: { low: 0.0567, high: 0.5098 } }, after: { count: 10, of: 10, interval: { low: 0.7225, high: 1 } } });
  });
});
