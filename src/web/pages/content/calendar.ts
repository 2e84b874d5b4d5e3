import type { Request, Response } from 'express';
import type { DashboardDeps } from '../../pageContext.js';
import { dayIn, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { showPage } from '../../kit.js';
import { articlePath, type ContentArticle, listArticles, rescheduleHint, rescheduleForm, scoreText, statusText } from './articles.js';
import type { DashboardPage } from '../../dashboardPage.js';
import { pageRoute } from '../../paths.js';
import { articlePage } from './article.js';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTH_NAME = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long', year: 'numeric' });

interface Month {
  year: number;
  /** 1 to 12. */
  month: number;
}

function monthKey({ year, month }: Month): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
}

function shiftMonth({ year, month }: Month, by: number): Month {
  const index = year * 12 + (month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The month asked for (?month=YYYY-MM), else the one today falls in, in the workspace's time zone. */
function shownMonth(req: Request, today: string): Month {
  const asked = typeof req.query.month === 'string' ? /^(\d{4})-(0[1-9]|1[0-2])$/.exec(req.query.month) : null;
  const [year, month] = asked === null ? today.split('-').map(Number) : [Number(asked[1]), Number(asked[2])];
  return { year: year!, month: month! };
}

/** The month's days (YYYY-MM-DD) in weeks from Monday; null fills the days of the weeks outside the month. */
function weeksOf(shown: Month): Array<Array<string | null>> {
  const first = new Date(Date.UTC(shown.year, shown.month - 1, 1));
  const length = new Date(Date.UTC(shown.year, shown.month, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: Array<string | null> = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length }, (_, day) => `${monthKey(shown)}-${String(day + 1).padStart(2, '0')}`),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

function monthView(res: Response, shown: Month, articles: ContentArticle[], today: string): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  const byDay = new Map<string, ContentArticle[]>();
  for (const article of articles) {
    const day = dayIn(Date.parse(article.scheduledAt), timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), article]);
  }
  const base = `/w/${res.locals.current!.workspaceId}/content`;
  const name = MONTH_NAME.format(new Date(Date.UTC(shown.year, shown.month - 1, 1)));
  const cell = (day: string | null) => {
    if (day === null) return html`<td></td>`;
    const planned = byDay.get(day) ?? [];
    return html`<td id="day-${day}"><strong>${Number(day.slice(8))}</strong>${day === today ? html` <span class="muted">(today)</span>` : ''}${
      planned.length === 0
        ? ''
        : html`<ul>${planned.map((article) => html`<li><a href="${articlePath(res, article.id)}">${article.title}</a> <span class="muted">${statusText(article)}</span></li>`)}</ul>`
    }</td>`;
  };
  return html`<p><a href="${base}?view=month&amp;month=${monthKey(shiftMonth(shown, -1))}" rel="prev">Previous month</a> · <a href="${base}?view=month&amp;month=${monthKey(shiftMonth(shown, 1))}" rel="next">Next month</a></p>
<div class="table-wrap" tabindex="0"><table id="calendar-month"><caption>${name}, by publish day (${timeZone})</caption><thead><tr>${WEEKDAYS.map((day) => html`<th scope="col">${day}</th>`)}</tr></thead>
<tbody>${weeksOf(shown).map((week) => html`<tr>${week.map(cell)}</tr>`)}</tbody></table></div>`;
}

function listView(res: Response, articles: ContentArticle[]): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  if (articles.length === 0) return html`<p class="muted">Nothing is planned yet. Plan articles from the ideas or the planned titles.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table id="calendar-list"><thead><tr><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Publish slot</th><th scope="col">Published</th><th scope="col" class="num">Health</th><th scope="col" class="num">Citability</th><th scope="col">Move</th></tr></thead>
<tbody>${articles.map(
    (article) => html`<tr><th scope="row"><a href="${articlePath(res, article.id)}">${article.title}</a></th><td>${statusText(article)}</td><td>${formatTime(article.scheduledAt, timeZone)}</td><td>${formatTime(article.publishedAt, timeZone)}</td><td class="num">${scoreText(article.healthScore)}</td><td class="num">${scoreText(article.citabilityScore)}</td><td>${
      article.status === 'planned' && !article.writing ? rescheduleForm(res, article) : html`<span class="muted">only planned articles move</span>`
    }</td></tr>`,
  )}</tbody></table></div>`;
}

/** The content calendar: a month of publish days (default), or every article in a table with a reschedule form each. */
export async function calendarPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const articles = await listArticles(deps, res);
  const base = `/w/${res.locals.current!.workspaceId}/content`;
  const today = dayIn(deps.clock.now(), res.locals.current!.timeZone);
  const list = req.query.view === 'list';
  const shown = shownMonth(req, today);
  const views = html`<p>View: ${list ? html`<a href="${base}?view=month&amp;month=${monthKey(shown)}">Month</a> · <strong>List</strong>` : html`<strong>Month</strong> · <a href="${base}?view=list">List</a>`}</p>
<p class="muted">Planned articles can be moved to another time (with flexible scheduling on in the brand profile): within the calendar's reach (the end of next month), in the future, on a day with room under the policy's articles a day, in a month with room in the plan's allowance. ${rescheduleHint(res.locals.current!.timeZone)}</p>`;
  showPage(deps, res, 'Calendar', html`${views}${list ? listView(res, articles) : monthView(res, shown, articles, today)}`, { at: 'content' });
}

export const CONTENT_CALENDAR: DashboardPage = {
  area: 'content',
  path: 'content',
  title: 'Calendar',
  show: calendarPage,
  routes: (router, deps, { inWorkspace }) => {
    // Each article's own page, linked from the calendar; the calendar stays marked in the menu.
    router.get(pageRoute('content/articles/:contentId'), ...inWorkspace, (req, res) => articlePage(deps, req, res));
  },
};
