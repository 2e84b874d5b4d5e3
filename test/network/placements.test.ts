import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Receiver } from '../publishing/receiver.js';
import { article, destinationAt, publish, startWithReceiver, stopWithReceiver, writtenArticle } from '../publishing/support.js';
import type { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { makeKnownLinksDue, queueDueVerifications } from '../../src/backlinks/verify.js';
import { NETWORK_LOCK } from '../../src/network/network.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { ACCEPT, insertPlacement, join, type Member, NETWORK, OPT_IN, ok, placement, REMOVE, site, sitePage, view } from './support.js';

describe('link network placements: both approvals, the republish with rel, removal and leaving', { timeout: 60_000 }, () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    ({ t, receiver } = await startWithReceiver());
  });
  afterAll(() => stopWithReceiver({ t, receiver }));

  let paths = 0;

  /**
   * A host site whose article was published once through its destination (so the next publish is article.updated),
   * on `words`, and a target site with a page on the same words; both join and the matching proposes the link.
   */
  async function proposed(words: string, hostAttribute?: 'nofollow' | 'dofollow', targetAttribute?: 'dofollow') {
    const host = await site(t, 'Host Co');
    const target = await site(t, 'Target Co');
    const path = `/net-${++paths}`;
    const destinationId = await destinationAt(t, host, receiver, path, { siteUrl: receiver.origin });
    const articleId = await writtenArticle(t, host, `Guide ${paths}`);
    await t.db.updateTable('articles').set({ markdown: `# Guide\n\n${words}`, keywords: '[]' }).where('id', '=', articleId).execute();
    receiver.reply(path, { json: { ok: true, url: receiver.url(`/blog/guide-${paths}`) } });
    await publish(t, host, articleId);
    await t.jobs.drain();
    const pageId = await sitePage(t, target, `/${words.split(' ')[0]!}-${paths}`, `Guide ${paths}`, words.split(' '));
    await join(t, host, hostAttribute);
    await join(t, target, targetAttribute);
    await t.jobs.drain();
    const given = (await view(t, host)).given;
    expect(given, JSON.stringify((await view(t, host)).membership)).toHaveLength(1);
    return { host, target, path, articleId, pageId, destinationId, placementId: given[0]!.placementId };
  }

  async function decide(ws: Member, approvalUrl: string | null, choice: 'approve' | 'decline') {
    expect(approvalUrl).toMatch(new RegExp(`^${t.baseUrl}/approvals/apr_`));
    const approvalId = approvalUrl!.split('/').pop()!;
    await t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId, userId: ws.ownerId, choice });
  }

  it('is proposed to both owners, goes live only when both approve, and is delivered as article.updated with rel="sponsored"', async () => {
    const { host, target, path, placementId } = await proposed('dental practice appointment reminders patient recall software schedule');
    const hostView = await view(t, host);
    const targetView = await view(t, target);
    expect(hostView.given[0]).toMatchObject({ state: 'proposed', otherSite: target.domain, rel: 'sponsored', hostApproved: false, targetApproved: false });
    expect(targetView.received[0]).toMatchObject({ placementId, state: 'proposed', otherSite: host.domain, otherSiteName: 'Host Co' });
    const approvals = await t.db.selectFrom('approvals').select(['workspace_id', 'summary']).where('operation_id', '=', 'accept_link_placement').where('input', 'like', `%${placementId}%`).execute();
    expect(approvals.find((a) => a.workspace_id === host.workspaceId)?.summary).toMatch(new RegExp(`^Link from your article "Guide \\d+" to ${target.domain}/dental-\\d+ \\(rel=sponsored\\)`));
    expect(approvals.find((a) => a.workspace_id === target.workspaceId)?.summary).toMatch(/^Accept a link to your page Guide \d+ from Host Co's article "Guide \d+"/);

    const delivered = receiver.at(path).length;
    await decide(host, hostView.given[0]!.approvalUrl, 'approve');
    expect((await view(t, host)).given[0]).toMatchObject({ state: 'proposed', hostApproved: true, approvalUrl: null });
    await t.jobs.drain();
    expect(receiver.at(path)).toHaveLength(delivered);

    await decide(target, targetView.received[0]!.approvalUrl, 'approve');
    const live = (await view(t, target)).received[0]!;
    expect(live).toMatchObject({ state: 'live', hostApproved: true, targetApproved: true, liveAt: expect.any(String) });
    await t.jobs.drain();
    expect(receiver.problems).toEqual([]);
    const update = receiver.at(path).at(-1)!;
    expect(update.body.event).toBe('article.updated');
    expect(update.body.article.html).toContain(`<p>Related reading: <a href="${String(live.targetUrl)}" rel="sponsored">${String(live.anchorText)}</a></p>`);
    // The Markdown copy carries the rel too: a destination rendering Markdown publishes the same sponsored link.
    expect(update.body.article.markdown).toContain(`Related reading: <a href="${String(live.targetUrl)}" rel="sponsored">${String(live.anchorText)}</a>`);

    expect((await view(t, host)).credits).toMatchObject({ balance: 4, granted: 3, earned: 1, spent: 0 });
    expect((await view(t, target)).credits).toMatchObject({ balance: 2, granted: 3, earned: 0, spent: 1 });
    const backlink = await t.db.selectFrom('backlinks').selectAll().where('workspace_id', '=', target.workspaceId).executeTakeFirstOrThrow();
    expect(backlink).toMatchObject({ source: 'network', placement_id: placementId, dofollow: 0, target_url: live.targetUrl, linking_url: live.hostArticleUrl, status: 'placed' });
  });

  it('carries nofollow when the host chose it, and no rel only when both owners chose dofollow', async () => {
    const nofollow = await proposed('aquarium reef coral lighting spectrum tank saltwater', 'nofollow');
    expect((await view(t, nofollow.host)).given[0]!.rel).toBe('nofollow');
    const oneSided = await proposed('mountain bike suspension fork travel trail enduro', 'dofollow');
    expect((await view(t, oneSided.host)).given[0]!.rel).toBe('sponsored');
    const both = await proposed('sourdough starter hydration flour levain crumb', 'dofollow', 'dofollow');
    await decide(both.host, (await view(t, both.host)).given[0]!.approvalUrl, 'approve');
    await decide(both.target, (await view(t, both.target)).received[0]!.approvalUrl, 'approve');
    await t.jobs.drain();
    const { html, markdown } = receiver.at(both.path).at(-1)!.body.article;
    expect(html).toMatch(/<p>Related reading: <a href="[^"]+">[^<]+<\/a><\/p>/);
    expect(html).not.toContain('rel=');
    expect(markdown).toMatch(/Related reading: <a href="[^"]+">[^<]+<\/a>/);
    expect(markdown).not.toContain('rel=');
    expect((await t.db.selectFrom('backlinks').select('dofollow').where('placement_id', '=', both.placementId).executeTakeFirstOrThrow()).dofollow).toBe(1);
  });

  it('is declined when either owner declines, and nothing is linked or charged', async () => {
    const { host, target, placementId } = await proposed('violin bow rosin horsehair rehair luthier');
    await decide(target, (await view(t, target)).received[0]!.approvalUrl, 'decline');
    expect((await view(t, host)).given[0]).toMatchObject({ state: 'declined', endReason: 'the target owner declined', approvalUrl: null });
    await decide(host, (await view(t, host)).given[0]!.approvalUrl ?? `${t.baseUrl}/approvals/${(await placement(t, placementId)).host_approval_id}`, 'approve');
    expect((await placement(t, placementId)).state).toBe('declined');
    expect((await view(t, target)).credits.balance).toBe(3);
  });

  it('is removed by either side: dry run first, then the host article is republished without it', async () => {
    const { host, target, path, placementId } = await proposed('beekeeping hive frames honey extractor swarm');
    await decide(host, (await view(t, host)).given[0]!.approvalUrl, 'approve');
    await decide(target, (await view(t, target)).received[0]!.approvalUrl, 'approve');
    await t.jobs.drain();
    expect(receiver.at(path).at(-1)!.body.article.html).toContain('Related reading');

    const before = await snapshot(t.db);
    const dryRun = await ok(t, target.key, 'POST', REMOVE, { placementId });
    expect(dryRun).toMatchObject({ dryRun: true });
    expect(String(dryRun.note)).toMatch(/^Would remove the link to .* the host article is republished without it \(article\.updated\) and the placement is retired/);
    expect(await snapshot(t.db)).toEqual(before);

    expect(await ok(t, target.key, 'POST', REMOVE, { placementId, confirm: true })).toMatchObject({ placementId, state: 'retired', republished: true });
    await t.jobs.drain();
    const update = receiver.at(path).at(-1)!;
    expect(update.body.event).toBe('article.updated');
    expect(update.body.article.html).not.toContain('Related reading');
    expect((await view(t, host)).given[0]).toMatchObject({ state: 'retired', endReason: 'removed by the target site' });
    // No refund.
    expect((await view(t, target)).credits.balance).toBe(2);

    const again = await t.rest(host.key, 'POST', REMOVE, { placementId, confirm: true });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(`placementId: placement ${placementId} is retired; only a proposed or live placement can be removed`);
  });

  it("answers 404 for another workspace's placement on every operation that names one", async () => {
    const { placementId } = await proposed('kayak paddle spray skirt whitewater eddy');
    const stranger = await site(t, 'Stranger');
    for (const [path, input] of [
      [REMOVE, { placementId }],
      [REMOVE, { placementId, confirm: true }],
      [ACCEPT, { placementId }],
    ] as const) {
      const answer = await t.rest(stranger.key, 'POST', path, input);
      expect(answer.status).toBe(404);
      expect(answer.body.error).toContain(placementId);
    }
  });

  it('leaving lists every placement in the dry run, then retires them all and republishes the host articles', async () => {
    const a = await proposed('telescope eyepiece aperture nebula astrophotography mount');
    await decide(a.host, (await view(t, a.host)).given[0]!.approvalUrl, 'approve');
    await decide(a.target, (await view(t, a.target)).received[0]!.approvalUrl, 'approve');
    await t.jobs.drain();
    expect(receiver.at(a.path).at(-1)!.body.article.html).toContain('Related reading');

    const before = await snapshot(t.db);
    const dryRun = await ok(t, a.target.key, 'POST', OPT_IN, { member: false });
    expect(dryRun).toMatchObject({ action: 'leave', placements: [{ placementId: a.placementId, side: 'received', state: 'live' }] });
    expect(String(dryRun.note)).toContain(`Would leave the link network and retire 1 placement: ${a.placementId} (received, live)`);
    expect(await snapshot(t.db)).toEqual(before);

    const left = await ok(t, a.target.key, 'POST', OPT_IN, { member: false, confirm: true });
    expect(left).toMatchObject({ member: false, retiredPlacements: 1, republishedArticles: 1, leftAt: expect.any(String) });
    await t.jobs.drain();
    expect(receiver.at(a.path).at(-1)!.body.article.html).not.toContain('Related reading');
    expect((await view(t, a.host)).given[0]).toMatchObject({ state: 'retired', endReason: 'a side left the network' });
    expect((await view(t, a.target)).membership).toMatchObject({ member: false, joinedAt: null });

    // Joining again grants no second set of starting credits.
    expect(await join(t, a.target)).toMatchObject({ member: true, creditsGranted: 0 });
  });

  it('joining states the rules and the risk, and the dofollow risk plainly; bad input is 400 naming the field', async () => {
    const ws = await site(t, 'Curious');
    // A key per call: the route allows 5 calls a minute per key.
    const keys: string[] = [];
    for (let i = 0; i < 8; i++) keys.push(await t.key(ws.workspaceId, ALL_SCOPES));
    const before = await snapshot(t.db);
    const sponsored = await ok(t, ws.key, 'POST', OPT_IN, { member: true });
    expect(String(sponsored.note)).toMatch(/^Would join the link network with links you host carrying rel="sponsored", grant 3 starting credits/);
    expect(String(sponsored.note)).toContain('No reciprocal links');
    expect(String(sponsored.note)).toContain("Google's spam policies treat links made for ranking as link spam");
    expect(String(sponsored.note)).not.toContain('You chose dofollow');
    const dofollow = await ok(t, ws.key, 'POST', OPT_IN, { member: true, linkAttribute: 'dofollow' });
    expect(String(dofollow.note)).toContain('You chose dofollow: links you host would pass ranking credit in exchange for credits');
    expect(dofollow).toMatchObject({ action: 'join', linkAttribute: 'dofollow', startingCredits: 3 });
    for (const [input, field] of [
      [{ member: false, linkAttribute: 'nofollow' }, 'linkAttribute'],
      [{ member: true, linkAttribute: 'follow' }, 'linkAttribute'],
      [{ member: 'yes' }, 'member'],
      [{}, 'member'],
    ] as const) {
      for (const confirm of [false, true]) {
        const answer = await t.rest(keys.pop()!, 'POST', OPT_IN, { ...input, confirm });
        expect(answer.status).toBe(400);
        expect(answer.body.error).toMatch(new RegExp(`^${field}: `));
      }
    }
    expect(await snapshot(t.db)).toEqual(before);
    expect((await ok(t, ws.key, 'GET', NETWORK)).membership).toMatchObject({ member: false, joinedAt: null });
  });
  /** Both owners approve through their approvalUrls, and the republish is delivered. */
  async function goLive(host: Member, target: Member): Promise<void> {
    await decide(host, (await view(t, host)).given[0]!.approvalUrl, 'approve');
    await decide(target, (await view(t, target)).received[0]!.approvalUrl, 'approve');
    await t.jobs.drain();
  }

  function approvalsOfPlacement(placementId: string) {
    return t.db.selectFrom('approvals').select(['workspace_id', 'state', 'error']).where('operation_id', '=', 'accept_link_placement').where('input', 'like', `%${placementId}%`).execute();
  }

  it('shows what verification finds on the host page: verified while it carries the link, lost once it drops it', async () => {
    const { host, target, placementId } = await proposed('harmonica reed plate bending blues chromatic');
    await goLive(host, target);
    const live = (await view(t, target)).received[0]!;
    expect(live).toMatchObject({ placementId, state: 'live', linkStatus: 'placed', lastVerifiedAt: null, lostAt: null });
    // The host's page, as its site serves the republished article.
    const hostPage = new URL(String(live.hostArticleUrl)).pathname;
    receiver.page(hostPage, `<!doctype html><html><body><p>Related reading: <a href="${String(live.targetUrl)}" rel="sponsored">${String(live.anchorText)}</a></p></body></html>`);
    await queueDueVerifications(t.db, t.clock, { workspaceId: target.workspaceId });
    await t.jobs.drain();
    const checkedAt = new Date(t.clock.now()).toISOString();
    expect((await view(t, host)).given[0]).toMatchObject({ placementId, state: 'live', linkStatus: 'verified', lastVerifiedAt: checkedAt, lostAt: null });

    // The host edits the link out of its page.
    receiver.page(hostPage, '<!doctype html><html><body><p>No related reading any more.</p></body></html>');
    t.clock.advance(60_000);
    await makeKnownLinksDue(t.db, t.clock, target.workspaceId);
    await queueDueVerifications(t.db, t.clock, { workspaceId: target.workspaceId });
    await t.jobs.drain();
    const lostAt = new Date(t.clock.now()).toISOString();
    for (const side of [(await view(t, host)).given[0], (await view(t, target)).received[0]]) {
      expect(side).toMatchObject({ placementId, state: 'live', linkStatus: 'lost', lastVerifiedAt: checkedAt, lostAt });
    }
    // A lost link refunds nothing by itself; either side retires it with remove_link_placement.
    expect((await view(t, target)).credits.balance).toBe(2);
  });

  it('leaving retires every placement, given and received, proposed and live, republishes both live links and withdraws pending approvals', async () => {
    const incoming = await proposed('theremin antenna pitch volume oscillator heterodyne');
    await goLive(incoming.host, incoming.target);
    const leaver = incoming.target;
    // The leaver's own article, published through its own destination, hosting a live link to another site.
    const path = `/net-${++paths}`;
    await destinationAt(t, leaver, receiver, path, { siteUrl: receiver.origin });
    const ownArticle = await writtenArticle(t, leaver, `Own ${paths}`);
    receiver.reply(path, { json: { ok: true, url: receiver.url(`/blog/own-${paths}`) } });
    await publish(t, leaver, ownArticle);
    await t.jobs.drain();
    const givenLive = await insertPlacement(t, leaver, await site(t, 'Linked To'), { state: 'live', hostArticleId: ownArticle });
    await publish(t, leaver, ownArticle);
    await t.jobs.drain();
    expect(receiver.at(path).at(-1)!.body.article.html).toContain('Related reading');
    const givenProposed = await insertPlacement(t, leaver, await site(t, 'Proposed To'));
    const receivedProposed = await insertPlacement(t, await site(t, 'Proposed From'), leaver);

    const dryRun = await ok(t, leaver.key, 'POST', OPT_IN, { member: false });
    expect(dryRun).toMatchObject({ action: 'leave' });
    expect(new Set((dryRun.placements as Array<{ placementId: string; side: string; state: string }>).map((p) => `${p.placementId} ${p.side} ${p.state}`))).toEqual(
      new Set([`${incoming.placementId} received live`, `${givenLive} given live`, `${givenProposed} given proposed`, `${receivedProposed} received proposed`]),
    );

    t.clock.advance(1000);
    const left = await ok(t, leaver.key, 'POST', OPT_IN, { member: false, confirm: true });
    expect(left).toMatchObject({ member: false, retiredPlacements: 4, republishedArticles: 2, storedArticles: 0 });
    // Taken under the network lock, as matching and go-lives are.
    expect(await t.db.selectFrom('named_locks').select('taken_at').where('name', '=', NETWORK_LOCK).executeTakeFirstOrThrow()).toEqual({ taken_at: t.clock.now() });
    await t.jobs.drain();
    for (const deliveryPath of [path, incoming.path]) {
      const update = receiver.at(deliveryPath).at(-1)!;
      expect(update.body.event).toBe('article.updated');
      expect(update.body.article.html).not.toContain('Related reading');
    }
    for (const id of [incoming.placementId, givenLive, givenProposed, receivedProposed]) {
      expect(await placement(t, id)).toMatchObject({ state: 'retired', end_reason: 'a side left the network' });
    }
    // Neither owner of a withdrawn proposal is left a decision to make.
    for (const id of [givenProposed, receivedProposed]) {
      const approvals = await approvalsOfPlacement(id);
      expect(approvals).toHaveLength(2);
      for (const approval of approvals) expect(approval).toMatchObject({ state: 'expired', error: 'the placement was retired: a side left the network' });
    }
  });

  it("removing a proposed placement withdraws both owners' pending approvals", async () => {
    const { host, target, placementId } = await proposed('ukulele fret soprano tenor strum chord');
    const hostApproval = (await view(t, host)).given[0]!.approvalUrl;
    expect(await ok(t, host.key, 'POST', REMOVE, { placementId, confirm: true })).toMatchObject({ placementId, state: 'retired', republished: false, note: null });
    const approvals = await approvalsOfPlacement(placementId);
    expect(approvals.map((a) => a.workspace_id).sort()).toEqual([host.workspaceId, target.workspaceId].sort());
    for (const approval of approvals) expect(approval).toMatchObject({ state: 'expired', error: 'the placement was retired: removed by the host site' });
    expect((await view(t, target)).received[0]).toMatchObject({ state: 'retired', approvalUrl: null });
    const approvalId = hostApproval!.split('/').pop()!;
    await expect(t.service.pipeline.decideApproval({ workspaceId: host.workspaceId, approvalId, userId: host.ownerId, choice: 'approve' })).rejects.toThrow(
      `approval ${approvalId} is expired; only a pending approval can be decided`,
    );
  });

  it('a live link whose host article cannot be republished now leaves its stored copy, and the answer says so', async () => {
    const { host, target, articleId, destinationId, placementId } = await proposed('gyroscope precession flywheel nutation torque spin');
    await goLive(host, target);
    const { slug } = await article(t, articleId);
    const served = async () => ((await ok(t, host.key, 'GET', '/api/v1/articles', { slug })).article as { html: string }).html;
    expect(await served()).toContain('Related reading');
    await ok(t, host.key, 'POST', '/api/v1/destinations/remove', { destinationId });

    const dryRun = await ok(t, target.key, 'POST', REMOVE, { placementId });
    expect(String(dryRun.note)).toContain("the host article's stored copy (Content API) is re-rendered without it (it cannot be republished now: the host site has no destination to publish to;");
    const removed = await ok(t, target.key, 'POST', REMOVE, { placementId, confirm: true });
    expect(removed).toMatchObject({
      republished: false,
      note: "Not republished (the host site has no destination to publish to): the stored article (Content API) no longer carries the link; destinations drop it at the article's next publish.",
    });
    expect(await served()).not.toContain('Related reading');
    expect((await article(t, articleId)).updated_at).toBe(t.clock.now());
  });

  it('goes live in a host article that cannot be republished now: its stored copy (Content API) carries the link', async () => {
    const { host, target, articleId, destinationId, placementId } = await proposed('marimba resonator mallet rosewood tremolo bar');
    // The host serves its site from the Content API alone.
    await ok(t, host.key, 'POST', '/api/v1/destinations/remove', { destinationId });
    await goLive(host, target);
    expect((await view(t, host)).given[0]).toMatchObject({ placementId, state: 'live' });
    const { slug } = await article(t, articleId);
    const { html } = (await ok(t, host.key, 'GET', '/api/v1/articles', { slug })).article as { html: string };
    expect(html).toMatch(/<p>Related reading: <a href="[^"]+" rel="sponsored">/);
  });

  it('a member changing its link attribute is told that placements already proposed keep their rel', async () => {
    const { host } = await proposed('metronome tempo pendulum escapement beat practice');
    const before = await snapshot(t.db);
    const dryRun = await ok(t, host.key, 'POST', OPT_IN, { member: true, linkAttribute: 'dofollow' });
    expect(dryRun).toMatchObject({ action: 'update', linkAttribute: 'dofollow', startingCredits: 0 });
    const note = String(dryRun.note);
    expect(note).toMatch(/^Already a member; would set the link attribute to dofollow for placements proposed from now on\./);
    expect(note).toContain('You chose dofollow: links you host would pass ranking credit');
    expect(note).toContain('The new attribute applies to placements proposed from now on; proposed and live placements keep the rel they were proposed with (now 1 carry rel="sponsored")');
    expect(String(dryRun.risk)).toContain('now 1 carry rel="sponsored"');
    expect(await snapshot(t.db)).toEqual(before);
    expect(await join(t, host, 'dofollow')).toMatchObject({ member: true, linkAttribute: 'dofollow' });
    expect((await view(t, host)).given[0]).toMatchObject({ state: 'proposed', rel: 'sponsored' });
  });
});
