import type { Request, Response } from 'express';
import type { z } from 'zod';
import { SETTABLE_STATUSES } from '../../../social/status.js';
import { THREAD_STATUSES } from '../../../social/threads.js';
import { SOCIAL_SOURCE_NAMES } from '../../../social/sources/source.js';
import type { socialThread } from '../../../../tools/social/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { nextPageLink, operationForm, queryChoice, queryPage, queryValue, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { choiceField, counted, filterForm, outsideLink } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';

type Thread = z.infer<typeof socialThread>;

interface ThreadList {
  threads: Thread[];
  total: number;
  nextPage: number | null;
}

interface SocialStats {
  total: number;
  byStatus: Record<string, number>;
  bySource: Array<{ source: string; configured: boolean; toConfigure: string | null; threads: number; pausedUntil: string | null }>;
  lastSearch: { state: string; queuedAt: string; finishedAt: string | null; error: string | null } | null;
}

const SORTS = ['best', 'newest'] as const;

function statsSection(stats: SocialStats, timeZone: string): SafeHtml {
  const last =
    stats.lastSearch === null
      ? html`No search has run yet.`
      : html`Last search: ${stats.lastSearch.state}, queued ${formatTime(stats.lastSearch.queuedAt, timeZone)}${stats.lastSearch.finishedAt === null ? '' : html`, finished ${formatTime(stats.lastSearch.finishedAt, timeZone)}`}${stats.lastSearch.error === null ? '' : html` (${stats.lastSearch.error})`}.`;
  return html`<div class="cards" id="thread-counts">${THREAD_STATUSES.map((status) => html`<div class="card"><h2>${status}</h2><p class="figure">${formatNumber(stats.byStatus[status] ?? 0, 0)}</p></div>`)}</div>
<div class="table-wrap" tabindex="0"><table id="social-sources"><caption>Sources searched daily</caption><thead><tr><th scope="col">Source</th><th scope="col" class="num">Threads</th><th scope="col">Searched</th></tr></thead><tbody>${stats.bySource.map(
    (source) =>
      html`<tr><td>${source.source}</td><td class="num">${formatNumber(source.threads, 0)}</td><td>${source.configured ? (source.pausedUntil === null ? 'yes' : html`paused until ${formatTime(source.pausedUntil, timeZone)}`) : html`no: the operator sets ${source.toConfigure ?? 'its settings'}`}</td></tr>`,
  )}</tbody></table></div>
<p id="last-search">${last}</p>`;
}

/** The reply part of a thread: the draft to copy and post by hand at the thread, and the forms to redraft or edit it. */
function replySection(res: Response, thread: Thread): SafeHtml {
  const draftForm = operationForm(res, {
    operationId: 'draft_social_reply',
    hidden: { threadId: thread.threadId },
    fields: html`<label>What the reply should say (optional) <textarea name="instructions" rows="2" maxlength="1000"></textarea></label>`,
    button: thread.replyDraft === null ? 'Draft a reply' : 'Draft it again',
    buttonClass: 'secondary',
  });
  if (thread.replyDraft === null) return draftForm;
  const editForm = operationForm(res, {
    operationId: 'draft_social_reply',
    hidden: { threadId: thread.threadId },
    fields: html`<label>Reply to copy and post at the thread <textarea name="text" rows="6" maxlength="5000">${thread.replyDraft}</textarea></label>`,
    button: 'Save the edited reply',
  });
  return html`<p>Copy the reply below and post it yourself at ${outsideLink(thread.url, `the thread on ${thread.community}`)}, then mark the thread replied. Sightline never posts.</p>${editForm}${draftForm}`;
}

function threadSection(res: Response, thread: Thread): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  const moves = SETTABLE_STATUSES.filter((status) => status !== thread.status);
  const statusForm = operationForm(res, {
    operationId: 'set_social_thread_status',
    hidden: { threadId: thread.threadId },
    fields: html`${choiceField('Move to', 'status', moves, undefined)}<label>Where you posted the reply (for replied, optional) <input type="url" name="replyUrl"></label>`,
    button: 'Move',
    id: `move-${thread.threadId}`,
  });
  return html`<section class="preview" id="thread-${thread.threadId}"><h3>${outsideLink(thread.url, thread.title)}</h3>
<p class="muted">${thread.community}${thread.author === null ? '' : `, by ${thread.author}`}, ${formatTime(thread.postedAt, timeZone)}; ${formatNumber(thread.comments, 0)} comments, ${formatNumber(thread.points, 0)} points${thread.sourceState === 'open' ? '' : `; ${thread.sourceState} at the source`}</p>
<p>${thread.excerpt}</p>
<dl class="data"><dt>Status</dt><dd class="status">${thread.status}</dd><dt>Found by</dt><dd>${thread.matchedKind} “${thread.matchedQuery}”</dd><dt>Relevance</dt><dd>${thread.relevance} of 100 (${thread.scoredBy === 'writer' ? 'judged by the writer model' : 'judged by its words'}): ${thread.relevanceReason}</dd><dt>Score</dt><dd>${thread.score} (freshness ${thread.freshness})</dd>${thread.replyUrl === null ? '' : html`<dt>Reply</dt><dd>${outsideLink(thread.replyUrl, 'the posted reply')}</dd>`}</dl>
${statusForm}${replySection(res, thread)}</section>`;
}

/** Growth › Social threads: the threads the daily search found, best or newest first, each with its reply draft. */
export async function socialPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const current = res.locals.current!;
  const status = queryChoice(req, 'status', THREAD_STATUSES);
  const source = queryChoice(req, 'source', SOCIAL_SOURCE_NAMES);
  const sort = queryChoice(req, 'sort', SORTS) ?? 'best';
  const relevance = Number(queryValue(req, 'minRelevance'));
  const minRelevance = Number.isInteger(relevance) && relevance >= 0 && relevance <= 100 ? relevance : undefined;
  const [stats, list] = await Promise.all([
    readOperation<SocialStats>(deps, res, 'get_social_stats'),
    readOperation<ThreadList>(deps, res, 'list_social_threads', { sort, page: queryPage(req), ...(status === undefined ? {} : { status }), ...(source === undefined ? {} : { source }), ...(minRelevance === undefined ? {} : { minRelevance }) }),
  ]);
  const path = `/w/${current.workspaceId}/growth/social`;
  const filters = html`${choiceField('Status', 'status', THREAD_STATUSES, status, 'All statuses')}${choiceField('Source', 'source', SOCIAL_SOURCE_NAMES, source, 'All sources')}<label>Relevance at least <input type="number" name="minRelevance" min="0" max="100" value="${minRelevance === undefined ? '' : String(minRelevance)}"></label>${choiceField('Order', 'sort', SORTS, sort)}`;
  showPage(
    deps,
    res,
    'Social threads',
    html`${statsSection(stats, current.timeZone)}
${operationForm(res, { operationId: 'search_social_threads', button: 'Search now', buttonClass: 'secondary' })}
<h2>Threads</h2>
${filterForm(path, filters, 'thread-filter')}
<p>${counted(list.total, 'thread')}.</p>
${list.threads.length === 0 ? html`<p class="muted" id="threads-empty">No threads match.</p>` : list.threads.map((thread) => threadSection(res, thread))}
${nextPageLink(req, list.nextPage, 'Next threads')}`,
    { at: 'growth/social' },
  );
}

export const GROWTH_SOCIAL: DashboardPage = {
  area: 'growth',
  path: 'growth/social',
  title: 'Social threads',
  show: socialPage,
};
