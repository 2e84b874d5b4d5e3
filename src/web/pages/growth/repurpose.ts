import type { Request, Response } from 'express';
import type { z } from 'zod';
import { REPURPOSE_CHANNELS } from '../../../repurpose/channels.js';
import { schedulerPagePath } from '../../../repurpose/connection.js';
import { REPURPOSE_STATES } from '../../../repurpose/drafts.js';
import type { repurposeDraft } from '../../../../tools/repurpose/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { dataOrNotice, nextPageLink, operationForm, queryChoice, queryPage, queryValue, showPage } from '../../kit.js';
import { csrfField } from '../../layout.js';
import { readOperation } from '../../operations.js';
import { choiceField, counted, filterForm, outsideLink, textBlock } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';
import { pageRoute } from '../../paths.js';

type Draft = z.infer<typeof repurposeDraft>;

interface DraftList {
  drafts: Draft[];
  total: number;
  nextPage: number | null;
}

interface Channels {
  tool: string;
  channels: Array<{ id: string; name: string; format: string | null; platform: string; active: boolean }>;
}

interface Articles {
  articles: Array<{ id: string; title: string; status: string }>;
}

export const repurposePath = (workspaceId: string): string => `/w/${workspaceId}/growth/repurpose`;

const editable = (draft: Draft): boolean => draft.state === 'draft' || draft.state === 'failed';

/** Each part in a textarea of its own, plus an empty one for a further part: a part may hold line breaks. */
function editForm(res: Response, draft: Draft): SafeHtml {
  const parts = [...draft.posts, ...(draft.posts.length < draft.limits.maxParts ? [''] : [])];
  return html`<form method="post" action="${repurposePath(res.locals.current!.workspaceId)}/edit" id="edit-${draft.draftId}">${csrfField(res.locals.visit!.csrf)}<input type="hidden" name="draftId" value="${draft.draftId}">${parts.map(
    (part, index) => html`<label>${index < draft.posts.length ? `Part ${index + 1}` : 'A further part (optional)'} <textarea name="posts" rows="4">${part}</textarea></label>`,
  )}<button type="submit" class="secondary">Save the edit</button></form>`;
}

function draftSection(res: Response, draft: Draft): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  const scheduler = draft.scheduler;
  const where =
    scheduler === null
      ? ''
      : html`<dt>Scheduler</dt><dd>${scheduler.tool}, ${scheduler.channelName ?? scheduler.channelId}${scheduler.scheduledFor === null ? ', as a draft there' : html`, for ${formatTime(scheduler.scheduledFor, timeZone)}`}${scheduler.postUrl === null ? '' : html` (${outsideLink(scheduler.postUrl, 'the post in the tool')})`}</dd>`;
  const posted =
    draft.state === 'posted'
      ? html`<dt>Posted</dt><dd>${formatTime(draft.postedAt, timeZone)}${draft.postedUrl === null ? '' : html` (${outsideLink(draft.postedUrl, 'the public post')})`}</dd>`
      : '';
  const markPosted =
    draft.state === 'posted' || draft.state === 'queued'
      ? ''
      : operationForm(res, {
          operationId: 'mark_repurpose_posted',
          hidden: { draftId: draft.draftId },
          fields: html`<label>Public address of the post (optional) <input type="url" name="url"></label>`,
          button: 'Mark posted',
          buttonClass: 'secondary',
        });
  return html`<section class="preview" id="draft-${draft.draftId}"><h3>${draft.channel}: ${draft.articleTitle}</h3>
<dl class="data"><dt>State</dt><dd>${draft.state}</dd><dt>Limits</dt><dd>at most ${counted(draft.limits.maxParts, 'part')} of ${counted(draft.limits.maxChars, 'character')}</dd><dt>Tagged link</dt><dd>${draft.linkUrl}</dd>${where}${posted}${draft.error === null ? '' : html`<dt>Last push failed</dt><dd>${draft.error}</dd>`}<dt>Updated</dt><dd>${formatTime(draft.updatedAt, timeZone)}</dd></dl>
${editable(draft) ? editForm(res, draft) : html`<ol>${draft.posts.map((post) => html`<li>${textBlock(post)}</li>`)}</ol>`}${markPosted}</section>`;
}

function channelField(channels: Channels | undefined): SafeHtml {
  if (channels === undefined) return html`<label>Channel id in the scheduling tool <input name="channelId" required></label>`;
  const usable = channels.channels.filter((channel) => channel.active && channel.format !== null);
  return html`<label>Channel <select name="channelId" required>${usable.map((channel) => html`<option value="${channel.id}">${channel.name} (${channel.platform}, takes ${channel.format ?? ''} drafts)</option>`)}</select></label>`;
}

/** The push form: the drafts that can go (checkboxes), the channel and the time; the dry run shows the requests. */
function pushForm(res: Response, drafts: Draft[], channels: Channels | undefined): SafeHtml {
  const pushable = drafts.filter(editable);
  if (pushable.length === 0) return html`<p class="muted">No draft on this page can be pushed (only drafts in state draft or failed can).</p>`;
  return operationForm(res, {
    operationId: 'push_repurpose',
    fields: html`<fieldset><legend>Drafts to push</legend>${pushable.map((draft) => html`<label><input type="checkbox" name="draftIds" value="${draft.draftId}"> ${draft.channel}: ${draft.articleTitle}</label>`)}</fieldset>${channelField(channels)}<label>Publish at (in the workspace's time zone; blank: a draft in the tool) <input type="datetime-local" name="scheduleAt"></label>`,
    button: 'Check the push',
    id: 'push-drafts',
  });
}

function generateForm(res: Response, articles: Articles): SafeHtml {
  const published = articles.articles.filter((article) => article.status === 'published');
  if (published.length === 0) return html`<p class="muted">Drafts are made from published articles; none is published yet.</p>`;
  return operationForm(res, {
    operationId: 'generate_repurpose',
    fields: html`<label>Article <select name="contentId" required>${published.map((article) => html`<option value="${article.id}">${article.title}</option>`)}</select></label><fieldset><legend>Channels</legend>${REPURPOSE_CHANNELS.map((channel) => html`<label><input type="checkbox" name="channels" value="${channel}"> ${channel}</label>`)}</fieldset><label>What the posts should stress or avoid (optional) <textarea name="instructions" rows="2" maxlength="1000"></textarea></label>`,
    button: 'Check the drafting',
    id: 'generate-drafts',
  });
}

/** Growth › Repurpose: social drafts made from articles, their edits, pushes to the scheduling tool, and posts. */
export async function repurposePage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const current = res.locals.current!;
  const state = queryChoice(req, 'state', REPURPOSE_STATES);
  const channel = queryChoice(req, 'channel', REPURPOSE_CHANNELS);
  const contentId = queryValue(req, 'contentId');
  const [list, articles, channels] = await Promise.all([
    readOperation<DraftList>(deps, res, 'list_repurpose', { page: queryPage(req), ...(state === undefined ? {} : { state }), ...(channel === undefined ? {} : { channel }), ...(contentId === undefined ? {} : { contentId }) }),
    readOperation<Articles>(deps, res, 'list_content'),
    dataOrNotice<Channels>(deps, res, 'list_repurpose_channels'),
  ]);
  const path = repurposePath(current.workspaceId);
  const schedulerLink =
    current.role === 'owner'
      ? html`<p>Posts are pushed to the workspace's scheduling tool: <a href="${schedulerPagePath(current.workspaceId)}">scheduling tool settings</a>.</p>`
      : html`<p class="muted">Posts are pushed to the workspace's scheduling tool, which an owner connects.</p>`;
  const channelData = 'data' in channels ? channels.data : undefined;
  const channelView =
    channelData === undefined
      ? ('notice' in channels ? channels.notice : '')
      : html`<div class="table-wrap" tabindex="0"><table id="channels"><caption>Channels in ${channelData.tool}</caption><thead><tr><th scope="col">Name</th><th scope="col">Platform</th><th scope="col">Takes</th><th scope="col">Active</th></tr></thead><tbody>${channelData.channels.map(
          (item) => html`<tr><td>${item.name}</td><td>${item.platform}</td><td>${item.format ?? 'no draft format'}</td><td>${item.active ? 'yes' : 'no'}</td></tr>`,
        )}</tbody></table></div>`;
  const filters = html`${choiceField('State', 'state', REPURPOSE_STATES, state, 'All states')}${choiceField('Channel', 'channel', REPURPOSE_CHANNELS, channel, 'All channels')}${contentId === undefined ? '' : html`<input type="hidden" name="contentId" value="${contentId}">`}`;
  showPage(
    deps,
    res,
    'Repurpose',
    html`${schedulerLink}
<h2>Scheduling channels</h2>${channelView}
<h2>Draft posts from an article</h2>${generateForm(res, articles)}
<h2>Drafts</h2>
${filterForm(path, filters, 'draft-filter')}
<p>${counted(list.total, 'draft')}.</p>
${list.drafts.length === 0 ? html`<p class="muted" id="drafts-empty">No drafts match.</p>` : list.drafts.map((draft) => draftSection(res, draft))}
${nextPageLink(req, list.nextPage, 'Next drafts')}
<h2>Push to the scheduling tool</h2>${pushForm(res, list.drafts, channelData)}`,
    { at: 'growth/repurpose' },
  );
}

/** Saves an edited draft: each part from its own textarea, so line breaks inside a part stay; empty parts are dropped. */
export async function saveDraftEdit(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const body = req.body as Record<string, unknown>;
  const posts = (Array.isArray(body.posts) ? body.posts : [body.posts]).filter((part): part is string => typeof part === 'string' && part.trim() !== '');
  await readOperation(deps, res, 'update_repurpose_draft', { draftId: body.draftId, posts });
  res.redirect(303, `${repurposePath(res.locals.current!.workspaceId)}?done=update_repurpose_draft`);
}

export const GROWTH_REPURPOSE: DashboardPage = {
  area: 'growth',
  path: 'growth/repurpose',
  title: 'Repurpose',
  show: repurposePage,
  // A draft's parts post here rather than to the generic action route, which reads a textarea as one list item per
  // line: a post's parts keep their line breaks.
  routes: (router, deps, { inWorkspace }) => {
    router.post(pageRoute('growth/repurpose/edit'), ...inWorkspace, (req, res) => saveDraftEdit(deps, req, res));
  },
};
