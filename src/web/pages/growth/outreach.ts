import type { Request, Response } from 'express';
import type { z } from 'zod';
import { mailboxPagePath } from '../../../outreach/mailbox.js';
import { OUTREACH_STAGES, STAGE_MOVES } from '../../../outreach/stages.js';
import type { outreachDraft, prospectOutput, threadRecord } from '../../../../tools/outreach/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { dataOrNotice, dataView, nextPageLink, operationForm, queryChoice, queryPage, queryValue, showPage } from '../../kit.js';
import { csrfField } from '../../layout.js';
import { readOperation } from '../../operations.js';
import { choiceField, filterForm, outsideLink, textBlock } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';
import { pageRoute } from '../../paths.js';

type Prospect = z.infer<typeof prospectOutput>;
type Draft = z.infer<typeof outreachDraft>;
type ThreadMessage = z.infer<typeof threadRecord>;

interface Thread {
  prospect: Prospect;
  total: number;
  omitted: number;
  messages: ThreadMessage[];
}

interface ProspectList {
  counts: Record<(typeof OUTREACH_STAGES)[number], number>;
  prospects: Prospect[];
  total: number;
  nextPage: number | null;
}

export const outreachPath = (workspaceId: string): string => `/w/${workspaceId}/growth/outreach`;
/** A prospect's thread with its drafts, where a draft is reopened for editing. */
export const threadPath = (workspaceId: string, prospectId: string): string => `${outreachPath(workspaceId)}/thread?prospect=${encodeURIComponent(prospectId)}`;

function contactCell(prospect: Prospect): SafeHtml {
  const contact = prospect.contact;
  if (contact === null) return html`<span class="muted">none yet</span>`;
  const confidence = contact.confidence === null ? '' : `, ${contact.confidence}% sure`;
  return html`${contact.name === null ? '' : html`${contact.name}<br>`}${contact.email}<br><span class="muted">${contact.source ?? 'unknown source'}${confidence}</span>`;
}

/** The forms that act on one prospect: move its stage, find a contact, draft an email. */
function prospectActions(res: Response, prospect: Prospect): SafeHtml {
  const moves = STAGE_MOVES[prospect.stage];
  const move =
    moves.length === 0
      ? html`<p class="muted">A placed link is final.</p>`
      : operationForm(res, {
          operationId: 'set_outreach_status',
          hidden: { prospectId: prospect.prospectId },
          fields: html`${choiceField(`Move ${prospect.domain} to`, 'stage', moves, undefined)}${moves.includes('link_placed') ? html`<label>Linking page (for link placed) <input type="url" name="linkingUrl"></label>` : ''}`,
          button: 'Move',
          id: `move-${prospect.prospectId}`,
        });
  const findContact = operationForm(res, { operationId: 'find_outreach_contact', hidden: { prospectId: prospect.prospectId }, button: `Find a contact at ${prospect.domain}`, buttonClass: 'secondary', showResult: true });
  const thread = html`<p><a href="${threadPath(res.locals.current!.workspaceId, prospect.prospectId)}">Thread and drafts</a></p>`;
  return html`${move}${prospect.contact === null ? findContact : ''}${draftRequestForm(res, prospect)}${thread}`;
}

/** Asks the writer model for a new draft to the prospect (the draft page shows it). */
function draftRequestForm(res: Response, prospect: Prospect): SafeHtml {
  return html`<form method="post" action="${outreachPath(res.locals.current!.workspaceId)}/draft">${csrfField(res.locals.visit!.csrf)}<input type="hidden" name="prospectId" value="${prospect.prospectId}"><label>What the email to ${prospect.domain} should say (optional) <textarea name="instructions" rows="2" maxlength="1000"></textarea></label><button type="submit" class="secondary">Draft an email</button></form>`;
}

/**
 * A draft's subject and body to edit, with two buttons on the same fields: *Save the draft* stores them
 * (update_outreach_draft), *Check before sending* shows queue_outreach_send's dry run of them. Save comes first, so
 * Enter in the subject saves rather than heads for a send.
 */
function draftForm(res: Response, draft: { messageId: string; subject: string; body: string }, back: string, id: string): SafeHtml {
  const workspaceId = res.locals.current!.workspaceId;
  return operationForm(res, {
    operationId: 'queue_outreach_send',
    hidden: { messageId: draft.messageId },
    back,
    fields: html`<label>Subject <input name="subject" value="${draft.subject}" required maxlength="200"></label><label>Body (the opt-out line is added when sent) <textarea name="body" rows="14" required maxlength="10000">${draft.body}</textarea></label><button type="submit" class="secondary" formaction="/w/${workspaceId}/do/update_outreach_draft">Save the draft</button> `,
    button: 'Check before sending',
    id,
  });
}

function prospectTable(res: Response, prospects: Prospect[]): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  if (prospects.length === 0) return html`<p class="muted" id="prospects-empty">No prospects here yet.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table id="prospects"><thead><tr><th scope="col">Site</th><th scope="col">Why</th><th scope="col">Stage</th><th scope="col">Contact</th><th scope="col">Actions</th></tr></thead><tbody>${prospects.map(
    (prospect) =>
      html`<tr id="prospect-${prospect.prospectId}"><td>${prospect.pageUrl === null ? prospect.domain : outsideLink(prospect.pageUrl, prospect.title ?? prospect.domain)}${prospect.targetUrl === null ? '' : html`<br><span class="muted">pitch ${prospect.targetUrl}</span>`}</td><td>${prospect.reason}</td><td class="stage">${prospect.stage.replace(/_/g, ' ')}<br><span class="muted">since ${formatTime(prospect.stageChangedAt, timeZone)}</span></td><td>${contactCell(prospect)}</td><td>${prospectActions(res, prospect)}</td></tr>`,
  )}</tbody></table></div>`;
}

function addProspectForm(res: Response): SafeHtml {
  return html`<h2>Add a prospect</h2><form method="post" action="${outreachPath(res.locals.current!.workspaceId)}/add" id="add-prospect">${csrfField(res.locals.visit!.csrf)}
<label>Site: a page address or a domain <input name="site" required maxlength="2000"></label>
<label>Contact email (optional) <input type="email" name="contactEmail" maxlength="254"></label>
<label>Contact name (optional) <input name="contactName" maxlength="200"></label>
<label>Why it is a prospect (optional) <input name="note" maxlength="500"></label>
<button type="submit">Add the prospect</button></form>`;
}

/** Growth › Outreach: the pipeline by stage, with the forms that move a prospect along it. */
export async function outreachPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const current = res.locals.current!;
  const stage = queryChoice(req, 'stage', OUTREACH_STAGES);
  const list = await readOperation<ProspectList>(deps, res, 'list_outreach_prospects', { page: queryPage(req), ...(stage === undefined ? {} : { stage }) });
  const path = outreachPath(current.workspaceId);
  const mailbox =
    current.role === 'owner'
      ? html`<p>Emails go out from the workspace's mailbox: <a href="${mailboxPagePath(current.workspaceId)}">mailbox settings</a>.</p>`
      : html`<p class="muted">Emails go out from the workspace's mailbox, which an owner sets up.</p>`;
  showPage(
    deps,
    res,
    'Outreach',
    html`${mailbox}
<div class="cards" id="stage-counts">${OUTREACH_STAGES.map((name) => html`<div class="card"><h2><a href="${path}?stage=${name}">${name.replace(/_/g, ' ')}</a></h2><p class="figure">${formatNumber(list.counts[name], 0)}</p></div>`)}</div>
${filterForm(path, choiceField('Stage', 'stage', OUTREACH_STAGES, stage, 'All stages'), 'stage-filter')}
${prospectTable(res, list.prospects)}${nextPageLink(req, list.nextPage, 'Next prospects')}
${addProspectForm(res)}`,
    { at: 'growth/outreach' },
  );
}

/** The add form's one prospect as add_outreach_prospects takes it: a site given as an address or as a domain. */
export async function addProspect(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const body = req.body as Record<string, unknown>;
  const text = (name: string): string | undefined => (typeof body[name] === 'string' && body[name].trim() !== '' ? body[name].trim() : undefined);
  const site = text('site') ?? '';
  const prospect = { ...(/^https?:\/\//i.test(site) ? { url: site } : { domain: site }), contactEmail: text('contactEmail'), contactName: text('contactName'), note: text('note') };
  await readOperation(deps, res, 'add_outreach_prospects', { prospects: [Object.fromEntries(Object.entries(prospect).filter(([, value]) => value !== undefined))] });
  res.redirect(303, `${outreachPath(res.locals.current!.workspaceId)}?done=add_outreach_prospects`);
}

function threadView(draft: Draft, timeZone: string): SafeHtml {
  if (draft.thread.length === 0) return html``;
  return html`<h2>The thread so far</h2>${draft.thread.map(
    (message) => html`<section class="preview"><h3>${message.direction === 'in' ? 'From' : 'To'} ${message.direction === 'in' ? message.from : message.to}: ${message.subject}</h3><p class="muted">${message.state}, ${formatTime(message.at, timeZone)}</p>${textBlock(message.body)}</section>`,
  )}`;
}

/**
 * Drafts an email to a prospect with the writer model and shows it for editing: the edited subject and body are saved
 * on the draft (update_outreach_draft) or go to queue_outreach_send, whose dry run shows the exact email before it is
 * queued; either way the person ends on the prospect's thread. Without a writer model the page shows the operation's
 * message.
 */
export async function draftPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const current = res.locals.current!;
  const body = req.body as Record<string, unknown>;
  const instructions = typeof body.instructions === 'string' && body.instructions.trim() !== '' ? body.instructions : undefined;
  const answer = await dataOrNotice<Draft>(deps, res, 'draft_outreach_reply', { prospectId: body.prospectId, ...(instructions === undefined ? {} : { instructions }) });
  const back = html`<p><a href="${outreachPath(current.workspaceId)}">Back to outreach</a></p>`;
  if ('notice' in answer) {
    showPage(deps, res, 'Draft an outreach email', html`${answer.notice}${back}`, { at: 'growth/outreach' });
    return;
  }
  const draft = answer.data;
  const missing = [draft.to === null ? 'the prospect has no contact email yet' : '', draft.from === null ? 'no mailbox is configured' : ''].filter((reason) => reason !== '');
  const thread = threadPath(current.workspaceId, draft.prospectId);
  const form = draftForm(res, draft, thread, 'send-draft');
  showPage(
    deps,
    res,
    'Draft an outreach email',
    html`<dl class="data"><dt>To</dt><dd>${draft.to ?? '—'}</dd><dt>From</dt><dd>${draft.from ?? '—'}</dd><dt>Kind</dt><dd>${draft.isReply ? 'a reply in the thread' : 'a first email'}</dd></dl>
${missing.length === 0 ? '' : html`<p class="notice" role="status">It cannot be sent yet: ${missing.join('; ')}.</p>`}
${form}<p>The draft is stored: it stays in <a href="${thread}">the prospect's thread</a> until it is sent.</p>${threadView(draft, current.timeZone)}${back}`,
    { at: 'growth/outreach' },
  );
}

function messageHeading(message: ThreadMessage): SafeHtml {
  const who = message.direction === 'in' ? html`From ${message.from}` : html`To ${message.to === '' ? 'the prospect (no contact email yet)' : message.to}`;
  return html`<h3>${who}: ${message.subject}</h3>`;
}

function messageFacts(message: ThreadMessage, timeZone: string): SafeHtml {
  const when =
    message.state === 'queued' && message.queuedFor !== null ? html`queued to go ${formatTime(message.queuedFor, timeZone)}` : html`${message.state}, ${formatTime(message.at, timeZone)}`;
  return html`<p class="muted">${when}${message.error === null ? '' : html`: ${message.error}`}</p>`;
}

/**
 * Growth › Outreach › a prospect's thread: every message oldest first, each stored draft open for editing (saved with
 * update_outreach_draft, sent through queue_outreach_send's dry run), and the form that drafts another.
 */
export async function threadPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const current = res.locals.current!;
  const prospectId = queryValue(req, 'prospect');
  const thread = await readOperation<Thread>(deps, res, 'get_outreach_thread', prospectId === undefined ? {} : { prospectId });
  const { prospect } = thread;
  const back = threadPath(current.workspaceId, prospect.prospectId);
  const messages =
    thread.messages.length === 0
      ? html`<p class="muted" id="thread-empty">No email with ${prospect.domain} yet.</p>`
      : thread.messages.map(
          (message) =>
            html`<section class="preview" id="message-${message.messageId}">${messageHeading(message)}${messageFacts(message, current.timeZone)}${
              message.state === 'draft' ? draftForm(res, message, back, `edit-${message.messageId}`) : textBlock(message.body)
            }</section>`,
        );
  showPage(
    deps,
    res,
    `Outreach thread: ${prospect.domain}`,
    html`${dataView({ site: prospect.domain, stage: prospect.stage.replace(/_/g, ' '), contact: prospect.contact?.email ?? null, why: prospect.reason })}
${thread.omitted === 0 ? '' : html`<p class="muted">The ${formatNumber(thread.omitted, 0)} oldest messages are not shown.</p>`}
<h2>Messages, oldest first</h2>${messages}
<h2>Draft ${thread.total === 0 ? 'an' : 'another'} email</h2>${draftRequestForm(res, prospect)}
<p><a href="${outreachPath(current.workspaceId)}">Back to outreach</a></p>`,
    { at: 'growth/outreach' },
  );
}

export const GROWTH_OUTREACH: DashboardPage = {
  area: 'growth',
  path: 'growth/outreach',
  title: 'Outreach',
  show: outreachPage,
  // These forms post to routes of their own rather than the generic action route: a prospect from plain fields, and an
  // outreach draft shown for editing before it is sent.
  routes: (router, deps, { inWorkspace }) => {
    router.post(pageRoute('growth/outreach/add'), ...inWorkspace, (req, res) => addProspect(deps, req, res));
    router.post(pageRoute('growth/outreach/draft'), ...inWorkspace, (req, res) => draftPage(deps, req, res));
    router.get(pageRoute('growth/outreach/thread'), ...inWorkspace, (req, res) => threadPage(deps, req, res));
  },
};
