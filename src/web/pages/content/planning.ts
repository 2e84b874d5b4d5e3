import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { capacityReport, contentIdeas, titleCandidates } from '../../../../tools/content/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { nextPageLink, operationForm, queryPage, showPage } from '../../kit.js';
import { csrfField } from '../../layout.js';
import { callOperation, formInput, readOperation, registeredOperation } from '../../operations.js';
import { articlePath, listArticles } from './articles.js';
import type { DashboardPage } from '../../dashboardPage.js';
import { pageRoute } from '../../paths.js';

const SIGNALS: Record<string, string> = {
  citationGap: 'AI answers cite others, not you',
  competitorCitations: 'competitors are cited',
  trending: 'growing in search',
  quickWin: 'Google position 4 to 30',
};

/** Ideas shown per page: the best come first, and a workspace with hundreds of queries still gets a quick page. */
const IDEAS_PER_PAGE = 50;

/** Content ideas: tracked queries no article covers yet, best first; plan one into the next slot or hide it. */
export async function ideasPage(deps: DashboardDeps, res: Response): Promise<void> {
  const { ideas: allIdeas, windowDays } = await readOperation<z.infer<typeof contentIdeas>>(deps, res, 'get_content_ideas');
  const page = Math.min(queryPage(res.req), Math.max(1, Math.ceil(allIdeas.length / IDEAS_PER_PAGE)));
  const ideas = allIdeas.slice((page - 1) * IDEAS_PER_PAGE, page * IDEAS_PER_PAGE);
  const more = page * IDEAS_PER_PAGE < allIdeas.length ? page + 1 : null;
  const planByText = operationForm(res, {
    operationId: 'plan_content_idea',
    fields: html`<label>Query to write about <input type="text" name="queryText" maxlength="200" required></label>`,
    button: 'Plan an article',
    id: 'plan-query',
  });
  const table =
    ideas.length === 0
      ? html`<p class="muted">No ideas: every tracked query has an article, or none is tracked yet. Track queries under Visibility, or plan any query below.</p>`
      : html`<div class="table-wrap" tabindex="0"><table id="ideas"><thead><tr><th scope="col">Query</th><th scope="col">Suggested title</th><th scope="col" class="num">Score</th><th scope="col">Based on</th><th scope="col">Actions</th></tr></thead>
<tbody>${ideas.map(
          (idea) => html`<tr><th scope="row">${idea.queryText}</th><td>${idea.suggestedTitle ?? html`<span class="muted">none: one is written when planned</span>`}</td><td class="num">${formatNumber(idea.score, 0)}</td><td>${
            idea.basedOn.length === 0 ? html`<span class="muted">${idea.scoreNote}</span>` : idea.basedOn.map((signal) => SIGNALS[signal]).join('; ')
          }</td><td>${operationForm(res, { operationId: 'plan_content_idea', hidden: { queryId: idea.id }, button: 'Plan', inline: true })} ${operationForm(res, {
            operationId: 'hide_content_idea',
            hidden: { queryId: idea.id },
            button: 'Hide',
            inline: true,
            buttonClass: 'secondary',
          })}</td></tr>`,
        )}</tbody></table></div>`;
  showPage(
    deps,
    res,
    'Ideas',
    html`<p class="muted">Scores (0 to 100) weigh the last ${formatNumber(windowDays, 0)} days of checks. Planning takes the calendar's next open slot; hiding keeps the query tracked.</p>
${allIdeas.length > IDEAS_PER_PAGE ? html`<p>Ideas ${formatNumber((page - 1) * IDEAS_PER_PAGE + 1, 0)} to ${formatNumber((page - 1) * IDEAS_PER_PAGE + ideas.length, 0)} of ${formatNumber(allIdeas.length, 0)}.</p>` : ''}
${table}${nextPageLink(res.req, more, 'More ideas')}
<h2>Plan any query</h2>${planByText}`,
    { at: 'content/ideas' },
  );
}

function capacitySection(res: Response, capacity: z.infer<typeof capacityReport>): SafeHtml {
  return html`<h2>Room in the calendar</h2>
<p>Next open slot: ${capacity.nextFreeSlot === null ? 'none, the calendar is full' : formatTime(capacity.nextFreeSlot, res.locals.current!.timeZone)}.</p>
<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">Month</th><th scope="col" class="num">Allowance</th><th scope="col" class="num">Booked</th><th scope="col" class="num">Remaining</th><th scope="col" class="num">Open slots</th></tr></thead>
<tbody>${capacity.months.map(
    (month) => html`<tr><th scope="row">${month.month}</th><td class="num">${formatNumber(month.allowance, 0)}</td><td class="num">${formatNumber(month.used, 0)}</td><td class="num">${formatNumber(month.remaining, 0)}</td><td class="num">${formatNumber(month.openSlots, 0)}</td></tr>`,
  )}</tbody></table></div>`;
}

/** Candidates from plan_titles as checkboxes of one commit form: each ticked one is a { title, keyword } item. */
function candidatesForm(res: Response, candidates: z.infer<typeof titleCandidates>['candidates']): SafeHtml {
  if (candidates.length === 0) return html`<p class="notice">No new titles came back: every candidate repeated a title already in the calendar.</p>`;
  return operationForm(res, {
    operationId: 'commit_planned_titles',
    fields: html`<fieldset><legend>Titles to plan, in this order</legend>${candidates.map(
      (candidate) => html`<label><input type="checkbox" name="titles" value="${JSON.stringify(candidate)}" checked> ${candidate.title} <span class="muted">(${candidate.keyword})</span></label>`,
    )}</fieldset>`,
    button: 'Plan the ticked titles',
    back: `/w/${res.locals.current!.workspaceId}/content/titles`,
    id: 'commit-titles',
  });
}

/**
 * Planned titles: the articles waiting for their slot, room left, and title suggestions from the writer model. A
 * suggestion run is a POST to this page (plan_titles saves nothing, so its candidates are shown here to tick).
 */
export async function titlesPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  let suggestions: SafeHtml = html``;
  if (req.method === 'POST') {
    const input = formInput(registeredOperation(deps, 'plan_titles'), req.body as Record<string, unknown>, res.locals.current!.timeZone);
    const result = await callOperation(deps, res, 'plan_titles', input);
    suggestions = result.ok
      ? candidatesForm(res, (result.data as z.infer<typeof titleCandidates>).candidates)
      : html`<p class="notice" role="alert" id="problem">${result.error.message}</p>`;
  }
  const planned = (await listArticles(deps, res)).filter((article) => article.status === 'planned');
  const capacity = await readOperation<z.infer<typeof capacityReport>>(deps, res, 'get_planning_capacity');
  const workspaceId = res.locals.current!.workspaceId;
  const timeZone = res.locals.current!.timeZone;
  const table =
    planned.length === 0
      ? html`<p class="muted">No planned titles.</p>`
      : html`<div class="table-wrap" tabindex="0"><table id="planned"><thead><tr><th scope="col">Title</th><th scope="col">Keyword</th><th scope="col">Publish slot</th><th scope="col">Delete</th></tr></thead>
<tbody>${planned.map(
          (article) => html`<tr><th scope="row"><a href="${articlePath(res, article.id)}">${article.title}</a></th><td>${article.keyword}</td><td>${formatTime(article.scheduledAt, timeZone)}</td><td>${
            article.writing
              ? html`<span class="muted">being written</span>`
              : operationForm(res, { operationId: 'delete_planned_title', hidden: { contentId: article.id }, button: `Delete ${article.title}`, inline: true, buttonClass: 'danger' })
          }</td></tr>`,
        )}</tbody></table></div>`;
  const suggestForm = html`<form method="post" action="/w/${workspaceId}/content/titles" id="suggest-titles">${csrfField(res.locals.visit!.csrf)}
<label>How many (1 to 10) <input type="number" name="count" min="1" max="10" value="5"></label>
<label>Topic (optional) <input type="text" name="topic" maxlength="200"></label>
<label>Keywords (optional, one a line) <textarea name="keywords" rows="3"></textarea></label>
<button type="submit">Suggest titles</button></form>`;
  showPage(
    deps,
    res,
    'Planned titles',
    html`${table}${capacitySection(res, capacity)}
<h2>Suggest titles</h2><p class="muted">The writer model suggests titles from brand memory; nothing is saved until you plan the ones you tick.</p>${suggestions}${suggestForm}`,
    { at: 'content/titles' },
  );
}

export const CONTENT_IDEAS: DashboardPage = {
  area: 'content',
  path: 'content/ideas',
  title: 'Ideas',
  show: (deps, _req, res) => ideasPage(deps, res),
};

export const CONTENT_TITLES: DashboardPage = {
  area: 'content',
  path: 'content/titles',
  title: 'Planned titles',
  show: titlesPage,
  routes: (router, deps, { inWorkspace }) => {
    router.post(pageRoute('content/titles'), ...inWorkspace, (req, res) => titlesPage(deps, req, res));
  },
};
