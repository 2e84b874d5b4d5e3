import { afterEach, describe, expect, it } from 'vitest';
import { BRAND, ChangeWorld, type RunPlan } from './support.js';

let world: ChangeWorld;
afterEach(() => world.close());

const OURS = `https://${BRAND.domain}/guide`;
const THEIRS = 'https://review.example/crm';

describe('citation.gained and citation.lost', () => {
  it('follow each query and engine over runs: cited twice then not twice is lost, the reverse gained', async () => {
    world = await ChangeWorld.open();
    const lost = await world.query('best crm for dentists');
    const gained = await world.query('crm with calendar sync');
    const noisy = await world.query('cheapest crm');
    // One letter a run per cell (c cited, n answered without citing us); a failed check adds nothing.
    // lost:   c c (failed) n n       -> "ccnn" at the 5th run
    // gained (AI overview): n (no overview) n c c -> "nncc" at the 5th run
    // noisy:  c n c n c               -> never two and two
    const letters = { lost: 'cc-nn', gained: 'n-ncc', noisy: 'cncnc' };
    const runs: string[] = [];
    for (let r = 0; r < 5; r++) {
      runs.push(
        await world.run((plan: RunPlan) => {
          const cell = (letter: string, add: (urls: string[]) => void, skip: () => void) => (letter === '-' ? skip() : add(letter === 'c' ? [OURS] : [THEIRS]));
          cell(letters.lost[r]!, (urls) => plan.answer('chatgpt', lost, { urls }), () => plan.failure('chatgpt', lost));
          cell(letters.gained[r]!, (urls) => plan.answer('google_ai_overview', gained, { urls }), () => plan.notShown('google_ai_overview', gained));
          cell(letters.noisy[r]!, (urls) => plan.answer('perplexity', noisy, { urls }), () => undefined);
        }),
      );
      if (r < 4) expect((await world.changes()).filter((c) => c.kind.startsWith('citation.'))).toEqual([]);
    }
    const changes = (await world.changes()).filter((c) => c.kind.startsWith('citation.'));
    expect(changes.map((c) => [c.kind, c.title, c.engine, c.query, c.runId]).sort()).toEqual([
      ['citation.gained', 'Google\'s AI overview started citing you for "crm with calendar sync"', 'google_ai_overview', 'crm with calendar sync', runs[4]],
      ['citation.lost', 'ChatGPT stopped citing you for "best crm for dentists"', 'chatgpt', 'best crm for dentists', runs[4]],
    ]);
    expect(changes.find((c) => c.kind === 'citation.lost')).toMatchObject({ severity: 'warning', queryId: lost, details: { history: 'ccnn', runId: runs[4], previousRunId: runs[3] } });
    const cells = await world.db.selectFrom('change_cells').select(['query_id', 'engine', 'history', 'last_run_id']).where('workspace_id', '=', world.workspaceId).orderBy('query_id').execute();
    expect(new Map(cells.map((c) => [c.query_id, [c.history, c.last_run_id]]))).toEqual(
      new Map([
        [lost, ['ccnn', runs[4]]],
        [gained, ['nncc', runs[4]]],
        [noisy, ['ncnc', runs[4]]],
      ]),
    );

    // The job run again for the last run: the same change is found, recorded once, and no cell takes a second letter.
    await world.detect(runs[4]!);
    expect((await world.changes()).filter((c) => c.kind.startsWith('citation.'))).toHaveLength(2);
    const again = await world.db.selectFrom('change_cells').select(['query_id', 'history']).where('workspace_id', '=', world.workspaceId).execute();
    expect(new Map(again.map((c) => [c.query_id, c.history]))).toEqual(new Map([[lost, 'ccnn'], [gained, 'nncc'], [noisy, 'ncnc']]));
    // An older run detected late (after a newer one) writes nothing over the newer history.
    await world.detect(runs[2]!);
    const after = await world.db.selectFrom('change_cells').select(['query_id', 'history']).where('workspace_id', '=', world.workspaceId).execute();
    expect(new Map(after.map((c) => [c.query_id, c.history]))).toEqual(new Map([[lost, 'ccnn'], [gained, 'nncc'], [noisy, 'ncnc']]));
  });

  it('follow the workspace\u2019s rule for engines and queries', async () => {
    world = await ChangeWorld.open();
    const q = await world.query('best crm for dentists');
    await world.db
      .insertInto('alert_rules')
      .values({ workspace_id: world.workspaceId, kind: 'citation.lost', enabled: 1, threshold: null, engines: JSON.stringify(['perplexity']), query_ids: null, updated_at: 0 })
      .execute();
    for (const letter of 'ccnn') await world.run((plan) => plan.answer('chatgpt', q, { urls: [letter === 'c' ? OURS : THEIRS] }).answer('perplexity', q, { urls: [letter === 'c' ? OURS : THEIRS] }));
    expect((await world.changes('citation.lost')).map((c) => c.engine)).toEqual(['perplexity']);
  });
});

describe('competitor.overtook', () => {
  it('is found when a competitor\u2019s share of voice interval moves entirely above the brand\u2019s', async () => {
    world = await ChangeWorld.open();
    const rival = await world.competitor('Rivalry', 'rivalry.example');
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await world.query(`crm for clinics ${i}`));
    const share = (brand: number) => (plan: RunPlan) => ids.forEach((id, i) => plan.answer('claude', id, { names: [i < brand ? BRAND.name : 'Rivalry'] }));
    await world.run(share(12));
    // Each answer names one of the two. Run 1: brand 12 of 20 [0.3866, 0.7812], Rivalry 8 of 20 [0.2188, 0.6134]:
    // overlapping. Run 2: brand 3 of 20 [0.0524, 0.3604], Rivalry 17 of 20 [0.6396, 0.9476]: 0.6396 > 0.3604, overtaken.
    const second = await world.run(share(3));
    const changes = await world.changes('competitor.overtook');
    expect(changes.map((c) => c.title)).toEqual(['Rivalry overtook you in share of voice: 85 % against your 15 %']);
    expect(changes[0]!.details).toMatchObject({
      competitorId: rival,
      before: { competitor: { share: 0.4, interval: { low: 0.2188, high: 0.6134 } }, brand: { share: 0.6, interval: { low: 0.3866, high: 0.7812 } } },
      after: { competitor: { share: 0.85, interval: { low: 0.6396, high: 0.9476 }, answersNaming: 17, of: 20 }, brand: { share: 0.15, answersNaming: 3, of: 20 } },
      runId: second,
    });
    // Still ahead in the next run: it overtook once, not again.
    await world.run(share(3));
    expect(await world.changes('competitor.overtook')).toHaveLength(1);
  });

  it('is not found for a lead inside the noise', async () => {
    world = await ChangeWorld.open();
    await world.competitor('Rivalry', 'rivalry.example');
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await world.query(`crm for clinics ${i}`));
    const share = (brand: number) => (plan: RunPlan) => ids.forEach((id, i) => plan.answer('claude', id, { names: [i < brand ? BRAND.name : 'Rivalry'] }));
    await world.run(share(12));
    // Brand 8 of 20 [0.2188, 0.6134], Rivalry 12 of 20 [0.3866, 0.7812]: ahead, but the intervals overlap.
    await world.run(share(8));
    expect(await world.changes('competitor.overtook')).toEqual([]);
  });
});

describe('source.new', () => {
  /** Answers to 20 queries on Gemini, each citing the listed domains in turn: domain i is cited by `counts[i]` answers. */
  const citing = (ids: readonly string[], counts: ReadonlyArray<[string, number]>) => (plan: RunPlan) =>
    ids.forEach((id, a) => plan.answer('gemini', id, { urls: counts.filter(([, n]) => a < n).map(([domain]) => `https://${domain}/page-${a}`) }));
  const established = Array.from({ length: 10 }, (_, i): [string, number] => [`source-${i}.example`, 20 - i]);

  it('is found when a domain enters the top 10 that was not in the top 20 of the run before', async () => {
    world = await ChangeWorld.open();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await world.query(`invoicing tool ${i}`));
    await world.run(citing(ids, established));
    // By answers, ties by name: source-0..4 (20..16), acme.example (15, the brand's own: left out), source-5..7
    // (15..13), newcomer.example (12, absent before: number 10), then source-8 (12). source-9 is gone and
    // rarely.example (2 answers) is far down: nothing.
    const second = await world.run(citing(ids, [...established.slice(0, 9), ['newcomer.example', 12], [BRAND.domain, 15], ['rarely.example', 2]]));
    const changes = await world.changes('source.new');
    expect(changes.map((c) => c.title)).toEqual(['newcomer.example is a new top source: cited by 12 answers, number 10 this run']);
    expect(changes[0]!.details).toMatchObject({ domain: 'newcomer.example', answers: 12, rank: 10, top: 10, runId: second });
  });

  it('is not found when the same sources trade places', async () => {
    world = await ChangeWorld.open();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await world.query(`invoicing tool ${i}`));
    await world.run(citing(ids, established));
    await world.run(citing(ids, established.map(([domain], i) => [domain, 11 + i])));
    expect(await world.changes('source.new')).toEqual([]);
  });
});

describe('rank.entered_top and rank.left_top', () => {
  it('compare each query\u2019s Google position with its latest earlier check that answered', async () => {
    world = await ChangeWorld.open();
    const q: string[] = [];
    for (const text of ['crm a', 'crm b', 'crm c', 'crm d', 'crm e', 'crm f']) q.push(await world.query(text));
    const positions: Array<Array<number | null | 'failed'>> = [
      // a: 12 -> 8 -> 8   entered the top 10 (run 2)
      // b: 2 -> 15 -> 15  left the top 3 (and the top 10): tier 3 (run 2)
      // c: 5 -> failed -> 2: entered the top 3 at run 3, against run 1's 5
      // d: 4 -> 7 -> 9    no boundary crossed
      // e: none -> 9 -> 9 entered the top 10 from outside the top 30 (run 2)
      // f: 11 -> 13 -> 9 entered the top 10 at run 3
      [12, 2, 5, 4, null, 11],
      [8, 15, 'failed', 7, 9, 13],
      [8, 15, 2, 9, 9, 9],
    ];
    const runs: string[] = [];
    for (const run of positions) runs.push(await world.run((plan) => run.forEach((position, i) => plan.rank(q[i]!, position))));
    const changes = (await world.changes()).filter((c) => c.kind.startsWith('rank.'));
    expect(changes.map((c) => [c.query, c.kind, c.details.tier, c.details.before, c.details.after, c.runId]).sort()).toEqual([
      ['crm a', 'rank.entered_top', 10, 12, 8, runs[1]],
      ['crm b', 'rank.left_top', 3, 2, 15, runs[1]],
      ['crm c', 'rank.entered_top', 3, 5, 2, runs[2]],
      ['crm e', 'rank.entered_top', 10, null, 9, runs[1]],
      ['crm f', 'rank.entered_top', 10, 13, 9, runs[2]],
    ]);
    expect(changes.find((c) => c.query === 'crm b')!.title).toBe('Google no longer ranks you in the top 3 for "crm b": position 2 before, position 15 now');
    expect(changes.find((c) => c.query === 'crm e')!.title).toBe('Google now ranks you in the top 10 for "crm e": not in the top 30 before, position 9 now');
    expect(changes.find((c) => c.query === 'crm b')).toMatchObject({ severity: 'warning', engine: null, queryId: q[1] });
  });
});
