import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPlacedLink } from '../../src/backlinks/knownLinks.js';
import { backlinkRow } from '../backlinks/support.js';
import { newId } from '../../src/ids.js';
import { insertPlacement, members, site } from '../network/support.js';
import { configureMailbox, insertDraft, insertProspect } from '../outreach/support.js';
import { insertRepurposeDraft } from '../repurpose/support.js';
import { insertThread } from '../social/support.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields, Visitor } from '../support/visitor.js';

const PASSWORD = 'correct horse battery';
let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function visitor(ws: TestWorkspace, role: 'owner' | 'member'): Promise<{ visitor: Visitor; csrf: string }> {
  const email = `${role}-${newId('u')}@acme.example`;
  await t.user(ws.workspaceId, email, role);
  const person = new Visitor(t.baseUrl);
  await person.signIn(email, PASSWORD);
  return { visitor: person, csrf: await person.csrf(`/w/${ws.workspaceId}/growth`) };
}

async function backlink(workspaceId: string, linkingUrl: string, status: 'verified' | 'lost'): Promise<void> {
  await t.db
    .insertInto('backlinks')
    .values(backlinkRow(t.clock.now(), { workspace_id: workspaceId, linking_url: linkingUrl, anchor_text: 'Acme CRM', domain_authority: 420, authority_metric: 'dataforseo_domain_rank', status }))
    .execute();
}

async function page(person: Visitor, path: string): Promise<string> {
  const answer = await person.request(path);
  expect(answer.status, path).toBe(200);
  return answer.text();
}

describe('the Growth pages', () => {
  it('show each page’s seeded rows to an owner and to a member', async () => {
    const host = await site(t, 'Acme');
    const other = await site(t, 'Rival');
    await members(t, host, other);
    await insertPlacement(t, host, other);
    await backlink(host.workspaceId, 'https://dental.example/tools', 'verified');
    await backlink(host.workspaceId, 'https://gone.example/old', 'lost');
    await insertProspect(t.db, t.clock, host.workspaceId, { domain: 'clinicblog.example' });
    await insertThread(t.db, t.clock, host.workspaceId, { reply_draft: 'We use a CRM made for clinics.', status: 'drafted' });
    await insertRepurposeDraft(t, host.workspaceId, { posts: ['First line\nsecond line https://acme.example/blog'] });
    const base = `/w/${host.workspaceId}/growth`;
    for (const role of ['owner', 'member'] as const) {
      const { visitor: person } = await visitor(host, role);
      const backlinks = await page(person, base);
      expect(backlinks).toContain('<h1>Backlinks</h1>');
      expect(backlinks).toContain('dental.example');
      expect(await page(person, `${base}?status=lost`)).not.toContain('dental.example');
      const outreach = await page(person, `${base}/outreach`);
      expect(outreach).toContain('clinicblog.example');
      expect(outreach.includes(`href="/w/${host.workspaceId}/outreach/mailbox"`)).toBe(role === 'owner');
      const network = await page(person, `${base}/network`);
      expect(network).toContain('Rival');
      expect(network).toContain('id="leave-network"');
      const social = await page(person, `${base}/social`);
      expect(social).toContain('Ask HN: Which CRM do dental clinics use?');
      expect(social).toContain('We use a CRM made for clinics.');
      expect(social).not.toMatch(/<button[^>]*>Post/);
      const repurpose = await page(person, `${base}/repurpose`);
      expect(repurpose).toContain('First line\nsecond line');
      expect(repurpose.includes(`href="/w/${host.workspaceId}/repurpose/scheduler"`)).toBe(role === 'owner');
      // No scheduling tool is connected: the channels operation's own message, inline.
      expect(repurpose).toMatch(/class="notice error" role="alert">[^<]*scheduling tool/i);
    }
  });

  it('records a link the owner placed, counts links built without counting social twice, and removes a managed link', async () => {
    const ws = await t.workspace();
    const { visitor: person, csrf } = await visitor(ws, 'member');
    const base = `/w/${ws.workspaceId}/growth`;
    expect(await page(person, base)).toContain('id="add-managed-backlink"');
    const added = await person.request(`/w/${ws.workspaceId}/do/add_managed_backlink`, {
      method: 'POST',
      form: { _csrf: csrf, back: base, linkingUrl: 'https://www.reddit.com/r/dentistry/comments/1', targetUrl: '', anchorText: 'Acme', dofollow: 'false' },
    });
    expect(added.status, await added.clone().text()).toBe(303);
    expect(added.headers.get('location')).toBe(`${base}?done=add_managed_backlink`);
    const [row] = await t.db.selectFrom('backlinks').selectAll().where('workspace_id', '=', ws.workspaceId).execute();
    expect(row).toMatchObject({ source: 'managed', status: 'placed', target_url: 'https://acme.example/', anchor_text: 'Acme', dofollow: 0 });

    // One managed link on a social site: one link built, of which one on social sites (not two).
    const shown = await page(person, base);
    const stats = shown.split('id="backlink-stats"')[1]!.split('</div>\n</div>')[0]!;
    expect(stats).toMatch(/<h2>Links built<\/h2><p class="figure">1<\/p><p class="muted">outreach 0, network 0, managed 1; of which on social sites 1<\/p>/);
    const removeForm = hiddenFields(shown.split(`id="remove-${row!.id}"`)[1]!.split('</form>')[0]!);
    expect(removeForm).toMatchObject({ backlinkId: row!.id });

    const refused = await person.request(`/w/${ws.workspaceId}/do/add_managed_backlink`, { method: 'POST', form: { _csrf: csrf, back: base, linkingUrl: 'https://acme.example/blog' } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/id="problem">[^<]*linkingUrl/);

    const removed = await person.request(`/w/${ws.workspaceId}/do/remove_managed_backlink`, { method: 'POST', form: { _csrf: csrf, ...removeForm } });
    expect(removed.status).toBe(303);
    expect(await t.db.selectFrom('backlinks').select('id').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
    expect(await page(person, base)).toContain('id="backlinks-empty"');
  });

  it('offers Remove only on managed rows', async () => {
    const ws = await t.workspace();
    const { visitor: person } = await visitor(ws, 'owner');
    await backlink(ws.workspaceId, 'https://dental.example/tools', 'verified');
    expect(await page(person, `/w/${ws.workspaceId}/growth`)).not.toContain('id="remove-');
  });

  it('moves a social thread and an outreach prospect through their forms', async () => {
    const ws = await t.workspace();
    const { visitor: person, csrf } = await visitor(ws, 'member');
    const threadId = await insertThread(t.db, t.clock, ws.workspaceId);
    const back = `/w/${ws.workspaceId}/growth/social`;
    const moved = await person.request(`/w/${ws.workspaceId}/do/set_social_thread_status`, { method: 'POST', form: { _csrf: csrf, back, threadId, status: 'dismissed' } });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe(`${back}?done=set_social_thread_status`);
    expect((await t.db.selectFrom('social_threads').select('status').where('id', '=', threadId).executeTakeFirstOrThrow()).status).toBe('dismissed');

    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId);
    const form = hiddenFields((await page(person, `/w/${ws.workspaceId}/growth/outreach`)).split(`id="move-${prospectId}"`)[1]!.split('</form>')[0]!);
    const stage = await person.request(`/w/${ws.workspaceId}/do/set_outreach_status`, { method: 'POST', form: { _csrf: csrf, ...form, stage: 'contacted' } });
    expect(stage.status).toBe(303);
    expect((await t.db.selectFrom('outreach_prospects').select('stage').where('id', '=', prospectId).executeTakeFirstOrThrow()).stage).toBe('contacted');
  });

  it('shows the operation’s 400 when a placed link has no linking page, and changes nothing', async () => {
    const ws = await t.workspace();
    const { visitor: person, csrf } = await visitor(ws, 'owner');
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { stage: 'contacted' });
    const answer = await person.request(`/w/${ws.workspaceId}/do/set_outreach_status`, { method: 'POST', form: { _csrf: csrf, prospectId, stage: 'link_placed' } });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/id="problem">[^<]*linkingUrl/);
    expect((await t.db.selectFrom('outreach_prospects').select('stage').where('id', '=', prospectId).executeTakeFirstOrThrow()).stage).toBe('contacted');
  });

  it('adds a prospect from plain fields, and answers a missing site with the operation’s 400', async () => {
    const ws = await t.workspace();
    const { visitor: person, csrf } = await visitor(ws, 'member');
    const added = await person.request(`/w/${ws.workspaceId}/growth/outreach/add`, { method: 'POST', form: { _csrf: csrf, site: 'https://reviews.example/crm', contactEmail: 'ed@reviews.example', note: 'reviews CRMs' } });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`/w/${ws.workspaceId}/growth/outreach?done=add_outreach_prospects`);
    const rows = await t.db.selectFrom('outreach_prospects').select(['domain', 'contact_email']).where('workspace_id', '=', ws.workspaceId).execute();
    expect(rows).toEqual([{ domain: 'reviews.example', contact_email: 'ed@reviews.example' }]);
    const refused = await person.request(`/w/${ws.workspaceId}/growth/outreach/add`, { method: 'POST', form: { _csrf: csrf, site: '' } });
    expect(refused.status).toBe(400);
  });

  it('drafts an outreach email for editing, then shows the send’s dry run before anything is queued', async () => {
    const ws = await t.workspace();
    const { visitor: person, csrf } = await visitor(ws, 'owner');
    await configureMailbox(t.db, t.clock, t.service.services.credentials, ws.workspaceId);
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId);
    const drafted = await person.request(`/w/${ws.workspaceId}/growth/outreach/draft`, { method: 'POST', form: { _csrf: csrf, prospectId } });
    const draftPage = await drafted.text();
    expect(drafted.status, draftPage).toBe(200);
    expect(draftPage).toContain('id="send-draft"');
    expect(draftPage).toContain(`formaction="/w/${ws.workspaceId}/do/update_outreach_draft"`);
    expect(draftPage).toContain(`href="/w/${ws.workspaceId}/growth/outreach/thread?prospect=${prospectId}"`);
    const messageId = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'editor@clinic.example' });
    const dryRun = await person.request(`/w/${ws.workspaceId}/do/queue_outreach_send`, {
      method: 'POST',
      form: { _csrf: csrf, back: `/w/${ws.workspaceId}/growth/outreach`, messageId, subject: 'An edited subject', body: 'Hello,\n\nan edited body.' },
    });
    const text = await dryRun.text();
    expect(dryRun.status, text).toBe(200);
    expect(text).toContain('id="dry-run"');
    expect(hiddenFields(text)).toMatchObject({ messageId, subject: 'An edited subject', confirm: 'true' });
    expect((await t.db.selectFrom('outreach_messages').select('state').where('id', '=', messageId).executeTakeFirstOrThrow()).state).toBe('draft');
  });

  it('opens a prospect’s thread, saves a draft’s edits there, and the send’s dry run shows them', async () => {
    const ws = await t.workspace();
    const { visitor: person, csrf } = await visitor(ws, 'member');
    await configureMailbox(t.db, t.clock, t.service.services.credentials, ws.workspaceId);
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { domain: 'dentalnews.example' });
    const queuedId = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId);
    expect((await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: queuedId, confirm: true })).status).toBe(200);
    t.clock.advance(60_000);
    // An answer to the prospect (the quiet period would hold back a second first email).
    const draftId = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { inReplyTo: '<their-1@dentalnews.example>', to: 'dana@dentalnews.example' });
    const threadPath = `/w/${ws.workspaceId}/growth/outreach/thread?prospect=${prospectId}`;
    expect(await page(person, `/w/${ws.workspaceId}/growth/outreach`)).toContain(`href="${threadPath}"`);

    const thread = await page(person, threadPath);
    expect(thread).toContain('dentalnews.example');
    expect(thread.indexOf(`id="message-${queuedId}"`)).toBeLessThan(thread.indexOf(`id="message-${draftId}"`));
    expect(thread).not.toContain(`id="edit-${queuedId}"`);
    const form = thread.split(`id="edit-${draftId}"`)[1]!.split('</form>')[0]!;
    expect(form).toContain('Your list of CRM tools is useful.');
    expect(form).toContain(`formaction="/w/${ws.workspaceId}/do/update_outreach_draft"`);

    const edited = { ...hiddenFields(form), _csrf: csrf, subject: 'A guide for your dental readers', body: 'Hello Dana,\r\n\r\nan edited pitch.' };
    const saved = await person.request(`/w/${ws.workspaceId}/do/update_outreach_draft`, { method: 'POST', form: edited });
    expect(saved.status, await saved.clone().text()).toBe(303);
    expect(saved.headers.get('location')).toBe(`${threadPath}&done=update_outreach_draft`);
    expect(await t.db.selectFrom('outreach_messages').select(['state', 'subject', 'body_text']).where('id', '=', draftId).executeTakeFirstOrThrow()).toEqual({
      state: 'draft',
      subject: 'A guide for your dental readers',
      body_text: 'Hello Dana,\n\nan edited pitch.',
    });
    const reopened = await page(person, `${threadPath}&done=update_outreach_draft`);
    expect(reopened).toContain('id="done"');
    expect(reopened.split(`id="edit-${draftId}"`)[1]!.split('</form>')[0]!).toContain('value="A guide for your dental readers"');

    // Check before sending, with only the stored draft named: the dry run shows the saved edits and queues nothing.
    const dryRun = await person.request(`/w/${ws.workspaceId}/do/queue_outreach_send`, { method: 'POST', form: { _csrf: csrf, back: threadPath, messageId: draftId } });
    const text = await dryRun.text();
    expect(dryRun.status, text).toBe(200);
    expect(text).toContain('id="dry-run"');
    expect(text).toContain('A guide for your dental readers');
    expect(text).toContain('an edited pitch.');
    expect((await t.db.selectFrom('outreach_messages').select('state').where('id', '=', draftId).executeTakeFirstOrThrow()).state).toBe('draft');
  });

  it('shows an empty thread, and answers a thread page without a prospect with the operation’s 400', async () => {
    const ws = await t.workspace();
    const { visitor: person } = await visitor(ws, 'owner');
    const quiet = await insertProspect(t.db, t.clock, ws.workspaceId, { domain: 'quiet.example' });
    expect(await page(person, `/w/${ws.workspaceId}/growth/outreach/thread?prospect=${quiet}`)).toContain('id="thread-empty"');
    const missing = await person.request(`/w/${ws.workspaceId}/growth/outreach/thread`);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('prospectId');
  });

  it('shows a placement removal’s dry run and the drafting of posts before anything happens', async () => {
    const host = await site(t, 'Hostco');
    const target = await site(t, 'Targetco');
    await members(t, host, target);
    const placementId = await insertPlacement(t, host, target, { state: 'live' });
    const { visitor: person, csrf } = await visitor(host, 'owner');
    const removal = await person.request(`/w/${host.workspaceId}/do/remove_link_placement`, { method: 'POST', form: { _csrf: csrf, placementId } });
    expect(removal.status).toBe(200);
    expect(await removal.text()).toContain('id="dry-run"');
    expect((await t.db.selectFrom('network_placements').select('state').where('id', '=', placementId).executeTakeFirstOrThrow()).state).toBe('live');

    const repurpose = await page(person, `/w/${host.workspaceId}/growth/repurpose`);
    expect(repurpose).toContain('id="generate-drafts"');
    const contentId = /<select name="contentId" required><option value="([^"]+)"/.exec(repurpose)![1]!;
    const form = new URLSearchParams({ _csrf: csrf, contentId, channels: 'x' });
    form.append('channels', 'linkedin');
    const generation = await person.request(`/w/${host.workspaceId}/do/generate_repurpose`, { method: 'POST', form });
    const text = await generation.text();
    expect(generation.status, text).toBe(200);
    expect(text).toContain('id="dry-run"');
    expect(await t.db.selectFrom('repurpose_drafts').select('id').where('workspace_id', '=', host.workspaceId).execute()).toEqual([]);
  });

  it('shows what the last look at the host page found for a live placement', async () => {
    const host = await site(t, 'Checkhost');
    const target = await site(t, 'Checktarget');
    await members(t, host, target);
    const placementId = await insertPlacement(t, host, target, { state: 'live' });
    const placement = await t.db.selectFrom('network_placements').select(['host_url', 'target_url']).where('id', '=', placementId).executeTakeFirstOrThrow();
    await t.db.transaction().execute((trx) =>
      recordPlacedLink(trx, t.clock, { workspaceId: target.workspaceId, linkingUrl: placement.host_url, targetUrl: placement.target_url, anchorText: 'Target Co', dofollow: false, source: 'network', placementId }),
    );
    const { visitor: person } = await visitor(host, 'owner');
    expect(await page(person, `/w/${host.workspaceId}/growth/network`)).toContain('link not checked yet');

    await t.db.updateTable('backlinks').set({ status: 'lost', lost_at: t.clock.now() }).where('placement_id', '=', placementId).execute();
    const network = await page(person, `/w/${host.workspaceId}/growth/network`);
    expect(network).toContain('<strong>link lost</strong>');
    expect(network).not.toContain('link not checked yet');
  });

  it('links a proposed placement to its pending approval, and Accept goes to an approval page', async () => {
    const host = await site(t, 'Approver');
    const target = await site(t, 'Asker');
    await members(t, host, target);
    const placementId = await insertPlacement(t, host, target);
    const { visitor: person, csrf } = await visitor(host, 'member');
    const approvalId = (await t.db.selectFrom('network_placements').select('host_approval_id').where('id', '=', placementId).executeTakeFirstOrThrow()).host_approval_id!;
    expect(await page(person, `/w/${host.workspaceId}/growth/network`)).toMatch(new RegExp(`href="[^"]*${approvalId}">Approve or decline</a>`));
    const accepted = await person.request(`/w/${host.workspaceId}/do/accept_link_placement`, { method: 'POST', form: { _csrf: csrf, placementId } });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toMatch(new RegExp(`^/w/${host.workspaceId}/approvals/`));
  });

  it('saves a repurpose draft’s parts with their line breaks', async () => {
    const ws = await t.workspace();
    const { visitor: person, csrf } = await visitor(ws, 'member');
    const draftId = await insertRepurposeDraft(t, ws.workspaceId, { channel: 'x' });
    const link = (await t.db.selectFrom('repurpose_drafts').select('link_url').where('id', '=', draftId).executeTakeFirstOrThrow()).link_url;
    const form = new URLSearchParams({ _csrf: csrf, draftId });
    form.append('posts', `Missed reminders cost clinics.\nHere is how: ${link}`);
    form.append('posts', 'A second part.');
    form.append('posts', '');
    const saved = await person.request(`/w/${ws.workspaceId}/growth/repurpose/edit`, { method: 'POST', form });
    expect(saved.status).toBe(303);
    const listed = await t.rest(ws.key, 'GET', '/api/v1/repurpose');
    const drafts = (listed.body.data as { drafts: Array<{ draftId: string; posts: string[] }> }).drafts;
    expect(drafts.find((draft) => draft.draftId === draftId)?.posts).toEqual([`Missed reminders cost clinics.\nHere is how: ${link}`, 'A second part.']);
  });
});

describe('the Growth pages without a writer model', () => {
  it('show the draft operation’s message in a notice instead of a draft', async () => {
    const bare = await TestService.start({ writer: false });
    try {
      const ws = await bare.workspace();
      const email = `owner-${ws.workspaceId}@acme.example`;
      await bare.user(ws.workspaceId, email, 'owner');
      const person = new Visitor(bare.baseUrl);
      await person.signIn(email, PASSWORD);
      const csrf = await person.csrf(`/w/${ws.workspaceId}/growth/outreach`);
      const prospectId = await insertProspect(bare.db, bare.clock, ws.workspaceId);
      const answer = await person.request(`/w/${ws.workspaceId}/growth/outreach/draft`, { method: 'POST', form: { _csrf: csrf, prospectId } });
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).toMatch(/class="notice error" role="alert">[^<]*WRITER_/);
      expect(text).not.toContain('id="send-draft"');
    } finally {
      await bare.close();
    }
  });
});
