import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPT_OUT_LINE } from '../../src/outreach/messages.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { FakeSmtp } from './fakes/mailServers.js';
import { configureMailbox, insertDraft, insertProspect, insertReceived } from './support.js';

let t: TestService;
let smtp: FakeSmtp;
let ws: TestWorkspace;

const DAY = 86_400_000;

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  t = await TestService.start({ env: { MAIL_ALLOW_INSECURE: '1', ALLOW_PRIVATE_TARGETS: '1' } });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

beforeEach(async () => {
  smtp.received.length = 0;
  smtp.temporaryFailure = undefined;
  ws = await t.workspace();
});

const mailbox = (overrides: Record<string, string> = {}) =>
  configureMailbox(t.db, t.clock, t.service.services.credentials, ws.workspaceId, { smtpHost: '127.0.0.1', smtpPort: String(smtp.port), ...overrides });
const queue = (body: Record<string, unknown>, key = ws.key) => t.rest(key, 'POST', '/api/v1/outreach/queue', body);
const message = (id: string) => t.db.selectFrom('outreach_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const prospect = (id: string) => t.db.selectFrom('outreach_prospects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const outreachJobs = () => t.db.selectFrom('jobs').selectAll().where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'outreach_send').execute();
/** Everything a refused or dry-run call must leave as it was. */
const snapshot = async () => ({
  messages: await t.db.selectFrom('outreach_messages').selectAll().where('workspace_id', '=', ws.workspaceId).orderBy('id').execute(),
  jobs: await outreachJobs(),
  prospects: await t.db.selectFrom('outreach_prospects').selectAll().where('workspace_id', '=', ws.workspaceId).orderBy('id').execute(),
});

/** A message of theirs read from the mailbox now. */
async function inbound(prospectId: string, from: string, messageId: string) {
  await insertReceived(t.db, t.clock, ws.workspaceId, prospectId, { from, messageId, body: 'Which page do you mean?' });
}

/**
 * Noon of a day no earlier test sent on: every workspace here sends from ada@acme.example through the one fake SMTP
 * account, and the daily cap counts that mailbox's sends whichever workspace made them.
 */
function freshDay(): void {
  t.clock.set(Math.floor(t.clock.now() / DAY) * DAY + 10 * DAY + DAY / 2);
}

async function draftFor(options: { contactEmail?: string | null } = {}) {
  const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, options);
  return { prospectId, messageId: await insertDraft(t.db, t.clock, ws.workspaceId, prospectId) };
}

describe('draft_outreach_reply', () => {
  it('drafts the first email with the writer, steered by brand memory and the prospect; stores a draft and sends nothing', async () => {
    await mailbox();
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { domain: 'clinicblog.example' });
    t.writer.answer('outreach_email', () => ({ subject: 'Your CRM list', body: 'Hello Dana,\n\nA suggestion for your list.' }));
    const answer = await t.rest(ws.key, 'POST', '/api/v1/outreach/draft-reply', { prospectId, instructions: 'Mention our dental CRM guide.' });
    expect(answer.status).toBe(200);
    const data = answer.body.data as Record<string, unknown>;
    expect(data).toMatchObject({ prospectId, state: 'draft', to: 'editor@clinicblog.example', from: 'ada@acme.example', subject: 'Your CRM list', inReplyTo: null, isReply: false, thread: [] });
    const prompt = t.writer.lastPrompt();
    expect(prompt).toContain('# Brand memory');
    expect(prompt).toContain('clinicblog.example');
    expect(prompt).toContain('Mention our dental CRM guide.');
    expect(prompt).toContain('write the first one');
    expect((await message(String(data.messageId))).state).toBe('draft');
    expect(smtp.received).toEqual([]);
    expect(await outreachJobs()).toEqual([]);
  });

  it("answers the prospect's last message: Re: subject, In-Reply-To and References, the thread in the prompt and the answer", async () => {
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { stage: 'replied' });
    await insertReceived(t.db, t.clock, ws.workspaceId, prospectId, {
      id: 'msg_inbound_1',
      from: 'dana@blog.example',
      subject: 'Your CRM list',
      body: 'Sounds good, which page do you mean?',
      messageId: '<their-1@blog.example>',
      inReplyTo: '<ours-1@acme.example>',
    });
    t.writer.answer('outreach_email', () => ({ subject: 'ignored for a reply', body: 'This one: https://acme.example/crm-for-dentists' }));
    const answer = await t.rest(ws.key, 'POST', '/api/v1/outreach/draft-reply', { prospectId });
    expect(answer.body.data).toMatchObject({ to: 'dana@blog.example', subject: 'Re: Your CRM list', inReplyTo: '<their-1@blog.example>', isReply: true, from: null });
    expect((answer.body.data as { thread: unknown[] }).thread).toHaveLength(1);
    expect(t.writer.lastPrompt()).toContain('Sounds good, which page do you mean?');
    const stored = await message(String((answer.body.data as { messageId: string }).messageId));
    expect(stored.references).toBe('<ours-1@acme.example> <their-1@blog.example>');

    // Once that answer is sent, their message is answered: the next draft is a follow-up, not a reply.
    t.clock.advance(60_000);
    await t.db.updateTable('outreach_messages').set({ state: 'sent', sent_at: t.clock.now(), message_id: '<ours-2@acme.example>' }).where('id', '=', stored.id).execute();
    t.writer.answer('outreach_email', () => ({ subject: 'ignored', body: 'Just checking in.' }));
    const next = await t.rest(ws.key, 'POST', '/api/v1/outreach/draft-reply', { prospectId });
    expect(next.body.data).toMatchObject({ isReply: false, to: 'dana@blog.example' });
    expect(t.writer.lastPrompt()).toContain('Write a short follow-up to our last email');
  });

  it("refuses bad input with 400 naming the field, and another workspace's prospect with 404", async () => {
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId);
    const long = await t.rest(ws.key, 'POST', '/api/v1/outreach/draft-reply', { prospectId, instructions: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(String(long.body.error)).toMatch(/instructions/);
    const other = await t.workspace();
    const foreign = await t.rest(other.key, 'POST', '/api/v1/outreach/draft-reply', { prospectId });
    expect(foreign.status).toBe(404);
    expect(await t.db.selectFrom('outreach_messages').select('id').where('prospect_id', '=', prospectId).execute()).toEqual([]);
  });
});

describe('queue_outreach_send', () => {
  it('dry run shows the exact message, recipient, mailbox and time; sends nothing and changes nothing', async () => {
    await mailbox();
    const { messageId } = await draftFor();
    const before = await snapshot();
    const answer = await queue({ messageId, subject: 'Edited subject' });
    expect(answer.status).toBe(200);
    const data = answer.body.data as Record<string, unknown>;
    expect(data).toMatchObject({ dryRun: true, to: expect.stringMatching(/^editor@/), from: 'Ada from Acme <ada@acme.example>', subject: 'Edited subject', sendAt: new Date(t.clock.now()).toISOString() });
    expect(String(data.text)).toMatch(new RegExp(`\\n\\n--\\n${OPT_OUT_LINE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    expect(String(data.note)).toMatch(/ada@acme\.example .* now/);
    await t.jobs.drain();
    expect(smtp.received).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('confirm queues the send and its job; the job sends it once over SMTP with Message-ID and List-Unsubscribe, and the prospect is contacted', async () => {
    await mailbox();
    const { messageId, prospectId } = await draftFor();
    const answer = await queue({ messageId, body: 'Edited body.', confirm: true });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ state: 'queued', text: `Edited body.\n\n--\n${OPT_OUT_LINE}` });
    expect(await message(messageId)).toMatchObject({ state: 'queued', body_text: `Edited body.\n\n--\n${OPT_OUT_LINE}` });
    await t.jobs.drain();
    expect(smtp.received).toHaveLength(1);
    const sent = await message(messageId);
    expect(sent).toMatchObject({ state: 'sent', error: null });
    expect(sent.message_id).toMatch(/^<[0-9a-f]+@acme\.example>$/);
    const raw = smtp.received[0]!.raw;
    expect(raw).toContain(`Message-ID: ${sent.message_id}`);
    expect(raw).toContain('List-Unsubscribe: <mailto:ada@acme.example?subject=unsubscribe>');
    expect(raw).toContain('Edited body.');
    expect(smtp.received[0]!.to).toEqual([sent.to_address]);
    expect((await prospect(prospectId)).stage).toBe('contacted');

    // The same job run again (a retry after a lost acknowledgement) finds the message sent and sends nothing.
    await t.db.updateTable('jobs').set({ state: 'queued', run_at: t.clock.now() }).where('id', '=', String(sent.job_id)).execute();
    await t.jobs.drain();
    expect(smtp.received).toHaveLength(1);
    const again = await queue({ messageId, confirm: true });
    expect(again.status).toBe(400);
    expect(String(again.body.error)).toMatch(/^messageId: .*sent; only a draft can be queued/);
  });

  it('an attempt that died while sending is not repeated: the message is failed, not sent twice', async () => {
    await mailbox();
    const { messageId } = await draftFor();
    await queue({ messageId, confirm: true });
    await t.db.updateTable('outreach_messages').set({ state: 'sending' }).where('id', '=', messageId).execute();
    await t.jobs.drain();
    expect(smtp.received).toEqual([]);
    expect(await message(messageId)).toMatchObject({ state: 'failed', error: expect.stringMatching(/interrupted while sending/) });
  });

  it('the job checks the suppression list again: an address suppressed after queueing gets nothing', async () => {
    await mailbox();
    const { messageId } = await draftFor({ contactEmail: 'late@optout.example' });
    await queue({ messageId, confirm: true });
    await t.db.insertInto('outreach_suppressions').values({ workspace_id: ws.workspaceId, email: 'late@optout.example', reason: 'asked', created_at: t.clock.now() }).execute();
    await t.jobs.drain();
    expect(smtp.received).toEqual([]);
    expect(await message(messageId)).toMatchObject({ state: 'failed', error: expect.stringMatching(/suppression list \(asked\)/) });
  });

  it('holds the daily cap: over it the dry run says the next day, and the send goes then', async () => {
    freshDay();
    await mailbox({ dailyCap: '1' });
    const first = await draftFor();
    const second = await draftFor();
    await queue({ messageId: first.messageId, confirm: true });
    const tomorrow = Math.floor(t.clock.now() / DAY) * DAY + DAY;
    const dry = await queue({ messageId: second.messageId });
    expect(dry.body.data).toMatchObject({ dryRun: true, sendAt: new Date(tomorrow).toISOString() });
    expect(String((dry.body.data as { note: string }).note)).toMatch(/cap of 1 sends is used up/);
    await queue({ messageId: second.messageId, confirm: true });
    await t.jobs.drain();
    expect(smtp.received).toHaveLength(1);
    expect((await message(second.messageId)).state).toBe('queued');
    t.clock.set(tomorrow + 1000);
    await t.jobs.drain();
    expect(smtp.received).toHaveLength(2);
    expect((await message(second.messageId)).state).toBe('sent');
  });

  it('refuses a suppressed recipient, and a second first email inside the quiet period; an answer to their message may go', async () => {
    await mailbox();
    const suppressed = await draftFor({ contactEmail: 'Gone@Example.org' });
    await t.db.insertInto('outreach_suppressions').values({ workspace_id: ws.workspaceId, email: 'gone@example.org', reason: 'opt_out', created_at: t.clock.now() }).execute();
    const refused = await queue({ messageId: suppressed.messageId });
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toMatch(/^messageId: gone@example\.org is on the suppression list \(opt_out\)/);

    const first = await draftFor({ contactEmail: 'same@person.example' });
    await queue({ messageId: first.messageId, confirm: true });
    await t.jobs.drain();
    t.clock.advance(3 * DAY);
    const second = await draftFor({ contactEmail: 'same@person.example' });
    const before = await snapshot();
    const quiet = await queue({ messageId: second.messageId, confirm: true });
    expect(quiet.status).toBe(400);
    expect(String(quiet.body.error)).toMatch(/^messageId: same@person\.example was sent one on .*quiet period is 14 days/);
    expect(await snapshot()).toEqual(before);
    // A draft naming a message they never sent is no answer: the quiet period holds it too.
    const unanswerable = await insertDraft(t.db, t.clock, ws.workspaceId, first.prospectId, { to: 'same@person.example', inReplyTo: '<their@person.example>' });
    expect(String((await queue({ messageId: unanswerable })).body.error)).toMatch(/^messageId: same@person\.example was sent one on/);
    await inbound(first.prospectId, 'same@person.example', '<their@person.example>');
    expect((await queue({ messageId: unanswerable })).status).toBe(200);
    t.clock.advance(12 * DAY);
    expect((await queue({ messageId: second.messageId })).status).toBe(200);
  });

  it('a 550 user unknown fails the send and suppresses the address; a 451 is retried by the job and then sent once', async () => {
    await mailbox();
    const unknown = await draftFor({ contactEmail: 'unknown@blog.example' });
    await queue({ messageId: unknown.messageId, confirm: true });
    await t.jobs.drain();
    expect(await message(unknown.messageId)).toMatchObject({ state: 'failed', error: expect.stringMatching(/550|user unknown/) });
    expect(await t.db.selectFrom('outreach_suppressions').selectAll().where('workspace_id', '=', ws.workspaceId).execute()).toEqual([
      expect.objectContaining({ email: 'unknown@blog.example', reason: 'bounce' }),
    ]);

    const later = await draftFor();
    smtp.temporaryFailure = 'mailbox busy, try later';
    await queue({ messageId: later.messageId, confirm: true });
    await t.jobs.drain();
    expect(await message(later.messageId)).toMatchObject({ state: 'queued', error: expect.stringMatching(/try later/) });
    const job = (await outreachJobs()).find((row) => row.subject_id === later.messageId)!;
    expect(job).toMatchObject({ state: 'queued', attempts: 1 });
    smtp.temporaryFailure = undefined;
    t.clock.advance(10 * 60_000);
    await t.jobs.drain();
    expect(smtp.received.filter((mail) => mail.to.some((to) => to.startsWith('editor@')))).toHaveLength(1);
    expect((await message(later.messageId)).state).toBe('sent');
  });

  it('refuses with 400 naming the field: no mailbox (naming where to set it), no contact email, bad edits; 404 for another workspace', async () => {
    const noBox = await draftFor();
    const before = await snapshot();
    const missing = await queue({ messageId: noBox.messageId, confirm: true });
    expect(missing.status).toBe(400);
    expect(String(missing.body.error)).toContain(`/w/${ws.workspaceId}/outreach/mailbox`);
    await mailbox();
    const noContact = await draftFor({ contactEmail: null });
    const noEmail = await queue({ messageId: noContact.messageId, confirm: true });
    expect(noEmail.status).toBe(400);
    expect(String(noEmail.body.error)).toMatch(/^messageId: prospect .* has no contact email: find one with find_outreach_contact/);
    for (const [body, field] of [
      [{ messageId: noBox.messageId, subject: 'x'.repeat(201) }, 'subject'],
      [{ messageId: noBox.messageId, body: '' }, 'body'],
      [{ messageId: noBox.messageId, to: 'someone@else.example' }, 'to'],
      [{ messageId: 42 }, 'messageId'],
    ] as const) {
      const answer = await queue({ ...body, confirm: true });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(String(answer.body.error)).toMatch(new RegExp(`^${field}: `));
    }
    const other = await t.workspace();
    const foreign = await queue({ messageId: noBox.messageId, confirm: true }, other.key);
    expect(foreign.status).toBe(404);
    const mcp = await t.mcpTool(other.key, 'queue_outreach_send', { messageId: noBox.messageId });
    expect(mcp.isError).toBe(true);
    expect(mcp.text).toMatch(/not found/);
    expect((await snapshot()).messages.find((m) => m.id === noBox.messageId)).toEqual(before.messages.find((m) => m.id === noBox.messageId));
    expect(smtp.received).toEqual([]);
  });
  it('answers one new message of theirs inside the quiet period, once: a second answer is refused naming the date; a newer message allows one more', async () => {
    await mailbox();
    const { prospectId, messageId } = await draftFor({ contactEmail: 'talk@person.example' });
    await queue({ messageId, confirm: true });
    await t.jobs.drain();
    t.clock.advance(60 * 60_000);
    await inbound(prospectId, 'talk@person.example', '<q1@person.example>');
    const answer = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'talk@person.example', inReplyTo: '<q1@person.example>' });
    expect((await queue({ messageId: answer, confirm: true })).status).toBe(200);
    await t.jobs.drain();
    expect((await message(answer)).state).toBe('sent');
    const answeredAt = t.clock.now();
    t.clock.advance(2 * 60 * 60_000);

    const again = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'talk@person.example', inReplyTo: '<q1@person.example>' });
    const before = await snapshot();
    const refused = await queue({ messageId: again, confirm: true });
    expect(refused.status).toBe(400);
    const mayGo = new Date(answeredAt + 14 * DAY).toISOString();
    expect(String(refused.body.error)).toBe(
      `messageId: talk@person.example was sent one on ${new Date(answeredAt).toISOString()}; the mailbox's quiet period is 14 days, so the next email to them may go from ${mayGo} ` +
        '(only an answer to a message of theirs newer than our last email may go sooner, once)',
    );
    expect(await snapshot()).toEqual(before);

    t.clock.advance(60_000);
    await inbound(prospectId, 'talk@person.example', '<q2@person.example>');
    const second = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'talk@person.example', inReplyTo: '<q2@person.example>' });
    expect((await queue({ messageId: second, confirm: true })).status).toBe(200);
    // Queued, it is our last email: a third answer to the same new message waits for the quiet period.
    const third = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'talk@person.example', inReplyTo: '<q2@person.example>' });
    expect(String((await queue({ messageId: third })).body.error)).toMatch(/^messageId: talk@person\.example has one queued for .*may go from/);
    await t.jobs.drain();
    expect((await message(second)).state).toBe('sent');
    expect(smtp.received).toHaveLength(3);
  });

  it('the job checks the quiet period again: a send that went to the person after this one was queued holds it', async () => {
    await mailbox();
    const { prospectId, messageId } = await draftFor({ contactEmail: 'twice@person.example' });
    await queue({ messageId, confirm: true });
    // Another send to them went out meanwhile (another instance, a concurrent queue).
    const other = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'twice@person.example' });
    await t.db.updateTable('outreach_messages').set({ state: 'sent', to_address: 'twice@person.example', sent_at: t.clock.now(), message_id: '<other@acme.example>' }).where('id', '=', other).execute();
    await t.jobs.drain();
    expect(smtp.received).toEqual([]);
    expect(await message(messageId)).toMatchObject({ state: 'failed', error: expect.stringMatching(/^twice@person\.example was sent one on .*may go from/) });
  });

  it('writes only to identified, contacted and replied prospects: rejected and link_placed are refused at queue time and in the job', async () => {
    await mailbox();
    for (const stage of ['rejected', 'link_placed'] as const) {
      const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { stage });
      const draft = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId);
      const before = await snapshot();
      const refused = await queue({ messageId: draft, confirm: true });
      expect(refused.status).toBe(400);
      expect(String(refused.body.error)).toBe(`messageId: prospect ${prospectId} is ${stage}; outreach email goes only to prospects that are identified, contacted, replied`);
      expect(await snapshot()).toEqual(before);
    }
    for (const stage of ['contacted', 'replied'] as const) {
      const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { stage });
      expect((await queue({ messageId: await insertDraft(t.db, t.clock, ws.workspaceId, prospectId) })).status).toBe(200);
    }
    const { prospectId, messageId } = await draftFor();
    await queue({ messageId, confirm: true });
    await t.rest(ws.key, 'POST', '/api/v1/outreach/status', { prospectId, stage: 'rejected' });
    await t.jobs.drain();
    expect(smtp.received).toEqual([]);
    expect(await message(messageId)).toMatchObject({ state: 'failed', error: expect.stringMatching(/is rejected; outreach email goes only to .* \(moved after it was queued\)/) });
  });

  it("two sends queued at the same moment do not both take the mailbox's last slot of the day", async () => {
    freshDay();
    await mailbox({ dailyCap: '1' });
    const drafts = [await draftFor(), await draftFor(), await draftFor()];
    // Enough open PostgreSQL connections first, so the three transactions overlap instead of waiting for a new one each.
    await Promise.all(drafts.map(() => t.rest(ws.key, 'GET', '/api/v1/outreach/prospects')));
    const answers = await Promise.all(drafts.map((draft) => queue({ messageId: draft.messageId, confirm: true })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const days = answers.map((answer) => Math.floor(Date.parse(String((answer.body.data as { sendAt: string }).sendAt)) / DAY));
    const today = Math.floor(t.clock.now() / DAY);
    expect([...days].sort()).toEqual([today, today + 1, today + 2]);
    await t.jobs.drain();
    expect(smtp.received).toHaveLength(1);
  });

  it('the daily cap is per mailbox: two workspaces sending from one address share it', async () => {
    freshDay();
    await mailbox({ dailyCap: '2' });
    const mine = await draftFor();
    await queue({ messageId: mine.messageId, confirm: true });
    const first = ws;
    ws = await t.workspace();
    await mailbox({ dailyCap: '2' });
    const theirs = [await draftFor(), await draftFor()];
    const today = await queue({ messageId: theirs[0]!.messageId, confirm: true });
    expect(today.body.data).toMatchObject({ sendAt: new Date(t.clock.now()).toISOString() });
    const tomorrow = Math.floor(t.clock.now() / DAY) * DAY + DAY;
    const over = await queue({ messageId: theirs[1]!.messageId });
    expect(over.body.data).toMatchObject({ sendAt: new Date(tomorrow).toISOString() });
    // A workspace with its own mailbox address is not held by the shared one's sends.
    ws = await t.workspace();
    await mailbox({ dailyCap: '2', fromAddress: 'bob@other.example', smtpUser: 'bob@other.example' });
    const elsewhere = await draftFor();
    expect((await queue({ messageId: elsewhere.messageId })).body.data).toMatchObject({ sendAt: new Date(t.clock.now()).toISOString() });
    ws = first;
  });
});
