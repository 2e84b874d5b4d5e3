import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withNamedLock } from '../../db/locks.js';
import { newId } from '../../src/ids.js';
import { enqueueJob } from '../../src/jobs/queue.js';
import { NETWORK_LOCK } from '../../src/network/network.js';
import { proposePlacement } from '../../src/network/placements.js';
import { TestService } from '../support/harness.js';
import { insertPlacement, join, liveArticle, type Member, members, placement, site, sitePage, uniqueWords, view, approveBoth } from './support.js';

const DAY_MS = 86_400_000;

describe('link network matching and rules', { timeout: 60_000 }, () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  /** A host with an article and a target with a page, both on `words`; not yet members. */
  async function pair(words: string): Promise<{ host: Member; target: Member; articleId: string }> {
    const host = await site(t, 'Host');
    const target = await site(t, 'Target');
    const articleId = await liveArticle(t, host, words.split(' ')[0]!, words);
    await sitePage(t, target, `/${words.split(' ')[1]!}`, words.split(' ')[0]!, words.split(' '));
    return { host, target, articleId };
  }

  async function noteOf(ws: Member): Promise<string> {
    return String((await view(t, ws)).membership.lastMatchNote);
  }

  it('proposes a page on the same topic in the same language, not one on another topic or in another language', async () => {
    const words = 'greenhouse tomato seedlings compost irrigation pruning harvest';
    const { host, target } = await pair(words);
    const otherTopic = await site(t, 'Elsewhere');
    await sitePage(t, otherTopic, '/engines', 'Diesel engines', ['diesel', 'engine', 'turbo', 'injector', 'gearbox']);
    const otherLanguage = await site(t, 'Anderswo');
    await t.db.updateTable('brands').set({ default_locale: 'de-DE' }).where('workspace_id', '=', otherLanguage.workspaceId).execute();
    await sitePage(t, otherLanguage, '/tomato', 'greenhouse', words.split(' '));
    for (const ws of [target, otherTopic, otherLanguage, host]) await join(t, ws);
    const embedded = t.writer.embeddingRequests.length;
    await t.jobs.drain();
    expect(t.writer.embeddingRequests.length).toBeGreaterThan(embedded);
    expect(t.writer.embeddingRequests.every((r) => r.model === 'fake-embedding-1')).toBe(true);
    const given = (await view(t, host)).given;
    expect(given).toHaveLength(1);
    expect(given[0]).toMatchObject({ otherSite: target.domain, state: 'proposed', language: 'en' });
    expect(given[0]!.similarity).toBeGreaterThan(0.8);
    // Whichever side's job ran first proposed it; the other found the article taken.
    expect([await noteOf(host), await noteOf(target)].filter((note) => /^1 placement proposed/.test(note))).toHaveLength(1);
    // Embeddings are kept per text: the next daily run embeds nothing that did not change.
    const before = t.writer.embeddingRequests.length;
    t.clock.advance(DAY_MS);
    await t.jobs.drain();
    const usage = await t.db.selectFrom('writer_usage').select(['purpose', 'model']).where('workspace_id', '=', host.workspaceId).execute();
    expect(usage).toContainEqual({ purpose: 'network_match', model: 'fake-embedding-1' });
    const later = t.writer.embeddingRequests.slice(before).flatMap((r) => (Array.isArray(r.input) ? r.input : [r.input]));
    expect(later.filter((text) => text.includes('greenhouse'))).toEqual([]);
  });

  it("books each member's embeddings to that member, whichever member's matching run embeds them", async () => {
    const { host, target } = await pair('beekeeping hive queen honey swarm pollen varroa');
    await members(t, host, target);
    await enqueueJob(t.db, t.clock, { workspaceId: host.workspaceId, kind: 'link_network_match', subjectId: host.workspaceId });
    await t.jobs.drain();
    const booked = await t.db.selectFrom('writer_usage').select('workspace_id').where('purpose', '=', 'network_match').where('workspace_id', 'in', [host.workspaceId, target.workspaceId]).execute();
    expect(new Set(booked.map((row) => row.workspace_id))).toEqual(new Set([host.workspaceId, target.workspaceId]));
    expect((await view(t, host)).given).toHaveLength(1);
  });

  it('refuses a reciprocal link and a short cycle', async () => {
    const reciprocal = await pair('origami crane paper folding crease valley');
    await join(t, reciprocal.host);
    await join(t, reciprocal.target);
    // The target already links to the host.
    await insertPlacement(t, reciprocal.target, reciprocal.host, { state: 'live' });
    t.clock.advance(DAY_MS);
    await t.jobs.drain();
    expect((await view(t, reciprocal.host)).given).toEqual([]);
    expect(await noteOf(reciprocal.host)).toContain('1 refused: reciprocal link: the target site already links to the host site');

    const cycle = await pair('calligraphy nib ink stroke parchment flourish');
    const third = await site(t, 'Third');
    await join(t, third);
    await insertPlacement(t, cycle.target, third, { state: 'live' });
    await insertPlacement(t, third, cycle.host, { state: 'proposed' });
    await join(t, cycle.host);
    await join(t, cycle.target);
    await t.jobs.drain();
    expect((await view(t, cycle.host)).given).toEqual([]);
    expect(await noteOf(cycle.host)).toContain('refused: short cycle');
  });

  it('keeps to one link per article and the monthly cap, and needs the target to have a credit', async () => {
    const busy = await pair('harpsichord quill jack soundboard temperament keyboard');
    const elsewhere = await site(t, 'Elsewhere');
    await join(t, elsewhere);
    await insertPlacement(t, busy.host, elsewhere, { state: 'live', hostArticleId: busy.articleId });
    await join(t, busy.host);
    await join(t, busy.target);
    await t.jobs.drain();
    // The article already hosts a link: it is not a host candidate at all.
    expect((await view(t, busy.host)).given.filter((p) => p.state === 'proposed')).toEqual([]);

    const capped = await pair('lighthouse lens fresnel keeper beacon foghorn');
    for (let i = 0; i < 4; i++) await insertPlacement(t, capped.host, elsewhere, { state: 'retired' });
    await join(t, capped.host);
    await join(t, capped.target);
    await t.jobs.drain();
    expect(await noteOf(capped.host)).toContain('refused: the host site has reached its monthly cap of 4 placements hosted');
    // Next month the cap is free again.
    const now = new Date(t.clock.now());
    t.clock.set(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 9));
    await t.jobs.drain();
    expect((await view(t, capped.host)).given.filter((p) => p.state === 'proposed')).toHaveLength(1);

    const broke = await pair('glassblowing furnace gather punty annealer cullet');
    await join(t, broke.host);
    await join(t, broke.target);
    await t.db.insertInto('network_credits').values({ id: newId('ncr'), workspace_id: broke.target.workspaceId, amount: -3, reason: 'received', placement_id: null, created_at: t.clock.now() }).execute();
    t.clock.advance(DAY_MS);
    await t.jobs.drain();
    expect(await noteOf(broke.host)).toContain('refused: the target site has no credits left');
  });

  it('keeps to the monthly cap on placements received too', async () => {
    const capped = await pair('tapestry warp weft bobbin heddle shuttle');
    const giver = await site(t, 'Giver');
    for (let i = 0; i < 4; i++) await insertPlacement(t, giver, capped.target, { state: i % 2 === 0 ? 'retired' : 'live' });
    await join(t, capped.host);
    await join(t, capped.target);
    await t.jobs.drain();
    expect((await view(t, capped.host)).given).toEqual([]);
    expect(await noteOf(capped.host)).toContain('1 refused: the target site has reached its monthly cap of 4 placements received');
  });

  it('refuses a second network link in one article, when proposing and again at the second approval', async () => {
    const host = await site(t, 'Double Host');
    const first = await site(t, 'First Target');
    const second = await site(t, 'Second Target');
    await members(t, host, first, second);
    const articleId = await liveArticle(t, host, 'Double', uniqueWords(8));
    // A proposal already out when the article's other link went live: the second approval catches it.
    const b = await insertPlacement(t, host, second, { hostArticleId: articleId });
    await insertPlacement(t, host, first, { state: 'live', hostArticleId: articleId });
    await approveBoth(t, host, second, b);
    expect(await placement(t, b)).toMatchObject({ state: 'declined', end_reason: 'the host article already carries a network link' });
    expect((await view(t, second)).credits.balance).toBe(3);

    const match = {
      hostWorkspaceId: host.workspaceId,
      hostArticleId: articleId,
      hostTitle: 'Double',
      hostUrl: `https://${host.domain}/blog/double`,
      targetWorkspaceId: second.workspaceId,
      targetKind: 'page' as const,
      targetSubjectId: newId('sp'),
      targetUrl: `https://${second.domain}/another-page`,
      targetTitle: 'Another page',
      similarity: 0.95,
      language: 'en',
    };
    const outcome = await withNamedLock(t.db, NETWORK_LOCK, t.clock.now(), (trx) => proposePlacement(trx, t.clock, t.service.services.linkNetwork, match));
    expect(outcome).toEqual({ refused: 'the host article already carries a network link' });
  });

  it('varies anchors among brand name, page title and domain for one target', async () => {
    const target = await site(t, 'Anchor Target');
    const topics = ['falconry hood jess lure mews raptor', 'bookbinding signature kettle stitch endpaper spine', 'letterpress platen chase quoin kerning leading'];
    const hosts: Member[] = [];
    for (const words of topics) {
      const host = await site(t, 'Anchor Host');
      await liveArticle(t, host, words.split(' ')[0]!, words);
      await sitePage(t, target, `/${words.split(' ')[1]!}`, words.split(' ')[0]!, words.split(' '));
      await join(t, host);
      hosts.push(host);
    }
    await join(t, target);
    await t.jobs.drain();
    const received = (await view(t, target)).received;
    expect(received).toHaveLength(3);
    const kinds = await t.db.selectFrom('network_placements').select(['anchor_kind', 'anchor_text']).where('target_workspace_id', '=', target.workspaceId).execute();
    expect(kinds.map((k) => k.anchor_kind).sort()).toEqual(['brand', 'domain', 'title']);
    expect(kinds.find((k) => k.anchor_kind === 'brand')?.anchor_text).toBe('Anchor Target');
    expect(kinds.find((k) => k.anchor_kind === 'domain')?.anchor_text).toBe(target.domain);
  });

  it('checks the rules again when the second owner approves, and declines it when they no longer hold', async () => {
    const host = await site(t, 'Late Host');
    const target = await site(t, 'Late Target');
    await join(t, host);
    await join(t, target);
    const placementId = await insertPlacement(t, host, target);
    // Meanwhile the target came to link to the host.
    await insertPlacement(t, target, host, { state: 'live' });
    await approveBoth(t, host, target, placementId);
    expect(await placement(t, placementId)).toMatchObject({ state: 'declined', end_reason: 'reciprocal link: the target site already links to the host site through the network' });
    expect((await view(t, host)).credits.balance).toBe(3);
    const approval = await t.db.selectFrom('approvals').select(['state', 'result']).where('id', '=', (await placement(t, placementId)).target_approval_id!).executeTakeFirstOrThrow();
    expect(approval.state).toBe('done');
    expect(JSON.parse(approval.result!)).toMatchObject({ placementId, side: 'target', state: 'declined', reason: expect.stringContaining('reciprocal') });
  });

  it('declines a placement whose approval lapsed after 7 days', async () => {
    const host = await site(t, 'Slow Host');
    const target = await site(t, 'Slow Target');
    await join(t, host);
    await join(t, target);
    const placementId = await insertPlacement(t, host, target);
    t.clock.advance(7 * DAY_MS + 1);
    expect((await view(t, host)).given[0]).toMatchObject({ state: 'declined', endReason: 'the host owner did not decide within 7 days' });
    await t.jobs.drain();
    expect(await placement(t, placementId)).toMatchObject({ state: 'declined', end_reason: 'the host owner did not decide within 7 days' });
  });
});

describe('link network matching without an embedding model', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start({ env: { WRITER_EMBEDDING_MODEL: '' } });
  });
  afterAll(() => t.close());

  it('proposes nothing and says which setting to configure', async () => {
    const host = await site(t, 'Host');
    const target = await site(t, 'Target');
    const words = 'pottery wheel glaze kiln stoneware bisque';
    await liveArticle(t, host, 'pottery', words);
    await sitePage(t, target, '/wheel', 'pottery', words.split(' '));
    await join(t, target);
    await join(t, host);
    await t.jobs.drain();
    expect((await view(t, host)).given).toEqual([]);
    expect((await view(t, host)).membership.lastMatchNote).toMatch(/^nothing proposed: matching needs embeddings, and no embedding model is configured: the operator sets WRITER_EMBEDDING_MODEL/);
    expect(t.writer.embeddingRequests).toEqual([]);
  });
});
