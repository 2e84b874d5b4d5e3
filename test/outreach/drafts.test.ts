import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { OPT_OUT_LINE } from '../../src/outreach/messages.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { FakeSmtp } from './fakes/mailServers.js';
import { configureMailbox, insertDraft, insertProspect, insertReceived } from './support.js';

let t: TestService;
let smtp: FakeSmtp;
let ws: TestWorkspace;

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  t = await TestService.start({ env: { MAIL_ALLOW_INSECURE: '1', ALLOW_PRIVATE_TARGETS: '1' } });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

beforeEach(async () => {
  ws = await t.workspace();
  await configureMailbox(t.db, t.clock, t.service.services.credentials, ws.workspaceId, { smtpHost: '127.0.0.1', smtpPort: String(smtp.port) });
});

interface ThreadMessage {
  messageId: string;
  direction: 'out' | 'in';
  state: string;
  from: string;
  to: string;
  subject: string;
  body: string;
  at: string;
  queuedFor: string | null;
  error: string | null;
}
interface Thread {
  prospect: { prospectId: string; domain: string };
  total: number;
  omitted: number;
  messages: ThreadMessage[];
}

const readThread = async (prospectId: string, key = ws.key): Promise<Thread> => {
  const answer = await t.rest(key, 'GET', '/api/v1/outreach/thread', { prospectId });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Thread;
};
const edit = (body: Record<string, unknown>, key = ws.key) => t.rest(key, 'POST', '/api/v1/outreach/draft', body);
const message = (id: string) => t.db.selectFrom('outreach_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** Everything a refused call must leave as it was. */
const snapshot = async () => ({
  messages: await t.db.selectFrom('outreach_messages').selectAll().where('workspace_id', '=', ws.workspaceId).orderBy('id').execute(),
  jobs: await t.db.selectFrom('jobs').selectAll().where('workspace_id', '=', ws.workspaceId).orderBy('id').execute(),
});

/** A message the prospect sent us, as the mailbox reader stores it. */
function received(prospectId: string, options: { body?: string; at?: number } = {}): Promise<string> {
  return insertReceived(t.db, t.clock, ws.workspaceId, prospectId, options);
}

/** A prospect written to once (sent over SMTP), who answered: the thread a reply is drafted in. */
async function answeredProspect(): Promise<{ prospectId: string; sentId: string; receivedId: string }> {
  const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { domain: `clinicblog-${newId('x').slice(-6)}.example` });
  const sentId = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId);
  expect((await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: sentId, confirm: true })).status).toBe(200);
  await t.jobs.drain();
  expect((await message(sentId)).state).toBe('sent');
  t.clock.advance(3_600_000);
  const receivedId = await received(prospectId);
  t.clock.advance(60_000);
  return { prospectId, sentId, receivedId };
}

describe('get_outreach_thread and update_outreach_draft', () => {
  it('reopen a stored draft from the thread, save its edits, and the send’s dry run shows the edited text', async () => {
    const { prospectId, sentId, receivedId } = await answeredProspect();
    t.writer.answer('outreach_email', () => ({ subject: 'ignored for a reply', body: 'This one: https://acme.example/crm-for-dentists' }));
    const drafted = await t.rest(ws.key, 'POST', '/api/v1/outreach/draft-reply', { prospectId });
    expect(drafted.status).toBe(200);
    const draftId = (drafted.body.data as { messageId: string }).messageId;

    const thread = await readThread(prospectId);
    expect(thread).toMatchObject({ prospect: { prospectId }, total: 3, omitted: 0 });
    expect(thread.messages.map((m) => [m.messageId, m.direction, m.state])).toEqual([
      [sentId, 'out', 'sent'],
      [receivedId, 'in', 'received'],
      [draftId, 'out', 'draft'],
    ]);
    expect(thread.messages[0]!.body.endsWith(OPT_OUT_LINE)).toBe(true);
    expect(thread.messages[2]).toMatchObject({ subject: 'Re: A resource for your CRM list', body: 'This one: https://acme.example/crm-for-dentists', queuedFor: null, error: null });

    // The person pastes the text the dry run showed (opt-out line included) from a browser (CRLF line breaks).
    const before = await t.db.selectFrom('jobs').select('id').where('workspace_id', '=', ws.workspaceId).execute();
    const saved = await edit({ messageId: draftId, subject: 'Re: the dental CRM guide', body: `Hello Dana,\r\n\r\nThis page: https://acme.example/crm-for-dentists\r\n\r\n--\r\n${OPT_OUT_LINE}` });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const editedBody = 'Hello Dana,\n\nThis page: https://acme.example/crm-for-dentists';
    expect(saved.body.data).toEqual({
      messageId: draftId,
      prospectId,
      state: 'draft',
      to: 'dana@clinicblog.example',
      from: 'ada@acme.example',
      subject: 'Re: the dental CRM guide',
      body: editedBody,
      inReplyTo: `<${receivedId}@clinicblog.example>`,
      isReply: true,
    });
    expect(await message(draftId)).toMatchObject({ state: 'draft', subject: 'Re: the dental CRM guide', body_text: editedBody, updated_at: t.clock.now() });
    expect(await t.db.selectFrom('jobs').select('id').where('workspace_id', '=', ws.workspaceId).execute()).toEqual(before);
    expect((await readThread(prospectId)).messages[2]).toMatchObject({ messageId: draftId, state: 'draft', subject: 'Re: the dental CRM guide', body: editedBody });

    const unchanged = await snapshot();
    const dryRun = await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: draftId });
    expect(dryRun.status).toBe(200);
    expect(dryRun.body.data).toMatchObject({ dryRun: true, to: 'dana@clinicblog.example', subject: 'Re: the dental CRM guide', text: `${editedBody}\n\n--\n${OPT_OUT_LINE}` });
    // A body pasted with its opt-out line into the send itself carries the line once too.
    const pasted = await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: draftId, body: `${editedBody}\n\n--\n${OPT_OUT_LINE}` });
    expect((pasted.body.data as { text: string }).text).toBe(`${editedBody}\n\n--\n${OPT_OUT_LINE}`);
    expect(await snapshot()).toEqual(unchanged);
    expect(smtp.received.filter((mail) => mail.raw.includes('crm-for-dentists'))).toEqual([]);
  });

  it('answer alike over MCP: the thread, and an edit of the body alone that keeps the subject', async () => {
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId);
    const draftId = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId);
    const viaMcp = await t.mcpTool(ws.key, 'get_outreach_thread', { prospectId });
    expect(viaMcp.isError).toBe(false);
    const thread = await readThread(prospectId);
    expect(viaMcp.structuredContent).toEqual(thread);
    // A first email's draft was stored without a recipient: the thread names who the send would go to now.
    expect(await message(draftId)).toMatchObject({ to_address: '' });
    expect(thread.messages).toEqual([expect.objectContaining({ messageId: draftId, state: 'draft', to: expect.stringMatching(/^editor@blog-/) })]);
    const edited = await t.mcpTool(ws.key, 'update_outreach_draft', { messageId: draftId, body: '  Hello Dana,\n\na shorter pitch.  ' });
    expect(edited.isError).toBe(false);
    expect(edited.structuredContent).toMatchObject({ messageId: draftId, state: 'draft', subject: 'A resource for your CRM list', body: 'Hello Dana,\n\na shorter pitch.', isReply: false, to: expect.stringMatching(/^editor@/) });
    expect(await message(draftId)).toMatchObject({ subject: 'A resource for your CRM list', body_text: 'Hello Dana,\n\na shorter pitch.' });
    const subjectOnly = await edit({ messageId: draftId, subject: 'A new subject' });
    expect(subjectOnly.body.data).toMatchObject({ subject: 'A new subject', body: 'Hello Dana,\n\na shorter pitch.' });
  });

  it('refuse to edit a queued, sent or received message with 400 naming messageId, on both surfaces, changing nothing', async () => {
    const { prospectId, sentId, receivedId } = await answeredProspect();
    const queuedId = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { inReplyTo: `<${receivedId}@clinicblog.example>`, to: 'dana@clinicblog.example' });
    expect((await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: queuedId, confirm: true })).status).toBe(200);
    const before = await snapshot();
    for (const [messageId, state] of [
      [sentId, 'sent'],
      [queuedId, 'queued'],
      [receivedId, 'a received message'],
    ] as const) {
      const answer = await edit({ messageId, body: 'Too late.' });
      expect(answer.status).toBe(400);
      expect(String(answer.body.error)).toBe(`messageId: message ${messageId} is ${state}; only a draft can be edited`);
      const viaMcp = await t.mcpTool(ws.key, 'update_outreach_draft', { messageId, subject: 'Too late' });
      expect(viaMcp.isError).toBe(true);
      expect(viaMcp.text).toMatch(/^messageId: /);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuse bad input with 400 naming the field, changing nothing', async () => {
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId);
    const draftId = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId);
    const before = await snapshot();
    for (const [input, field] of [
      [{ messageId: draftId }, 'subject: send subject, body or both'],
      [{ messageId: draftId, subject: '' }, 'subject'],
      [{ messageId: draftId, subject: '   ' }, 'subject'],
      [{ messageId: draftId, subject: 'x'.repeat(201) }, 'subject'],
      [{ messageId: draftId, body: 'x'.repeat(10_001) }, 'body'],
      [{ messageId: draftId, body: `--\n${OPT_OUT_LINE}` }, 'body: holds only the opt-out line'],
      [{ messageId: draftId, body: 42 }, 'body'],
      [{ body: 'No message named.' }, 'messageId'],
      [{ messageId: draftId, body: 'Hi', to: 'someone@else.example' }, 'to'],
    ] as const) {
      const answer = await edit(input);
      expect(answer.status, JSON.stringify(input)).toBe(400);
      expect(String(answer.body.error), JSON.stringify(input)).toMatch(new RegExp(`^${field}`));
    }
    const missing = await t.rest(ws.key, 'GET', '/api/v1/outreach/thread', {});
    expect(missing.status).toBe(400);
    expect(String(missing.body.error)).toMatch(/^prospectId/);
    const unknown = await t.rest(ws.key, 'GET', '/api/v1/outreach/thread', { prospectId, stage: 'identified' });
    expect(unknown.status).toBe(400);
    expect(String(unknown.body.error)).toMatch(/stage/);
    expect(await snapshot()).toEqual(before);
  });

  it("answer another workspace's prospect or draft with 404, as a missing one, on both surfaces, changing nothing", async () => {
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId);
    const draftId = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId);
    const before = await snapshot();
    const other = await t.workspace();
    const thread = await t.rest(other.key, 'GET', '/api/v1/outreach/thread', { prospectId });
    expect(thread.status).toBe(404);
    expect((await t.rest(other.key, 'GET', '/api/v1/outreach/thread', { prospectId: 'prs_missing' })).status).toBe(404);
    expect((await t.mcpTool(other.key, 'get_outreach_thread', { prospectId })).text).toMatch(/not found/);
    const update = await edit({ messageId: draftId, body: 'Hijacked.' }, other.key);
    expect(update.status).toBe(404);
    expect(String(update.body.error)).toBe(`message ${draftId} not found in this workspace`);
    const viaMcp = await t.mcpTool(other.key, 'update_outreach_draft', { messageId: draftId, subject: 'Hijacked' });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toMatch(/not found/);
    expect(await snapshot()).toEqual(before);
  });

  it('give the latest 100 messages of a long thread, oldest first, saying how many were left out', async () => {
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId);
    const start = t.clock.now();
    for (let index = 0; index < 105; index += 1) await received(prospectId, { body: `message ${index}`, at: start + index * 1000 });
    const thread = await readThread(prospectId);
    expect(thread).toMatchObject({ total: 105, omitted: 5 });
    expect(thread.messages.map((m) => m.body)).toEqual(Array.from({ length: 100 }, (_, index) => `message ${index + 5}`));
  });
});
