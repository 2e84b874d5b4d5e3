import type { Response } from 'express';
import type { z } from 'zod';
import type { contentList } from '../../../../tools/content/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatPercent, wallTimeValue } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm } from '../../kit.js';
import { readOperation } from '../../operations.js';

export type ContentArticle = z.infer<typeof contentList>['articles'][number];

/** Every article of the calendar, by publish slot, as list_content gives them. */
export async function listArticles(deps: DashboardDeps, res: Response): Promise<ContentArticle[]> {
  return (await readOperation<z.infer<typeof contentList>>(deps, res, 'list_content')).articles;
}

export function articlePath(res: Response, contentId: string): string {
  return `/w/${res.locals.current!.workspaceId}/content/articles/${contentId}`;
}

/** The article's state in words: a write job under way is named, not only the stored status. */
export function statusText(article: ContentArticle): string {
  return article.writing ? `${article.status}, being written` : article.status;
}

export function scoreText(score: number | null): string {
  return score === null ? '—' : formatPercent(score, { digits: 0 });
}

/** Said next to the reschedule forms, whose labels stay short enough for a table cell. */
export function rescheduleHint(timeZone: string): string {
  return `New times are read in the workspace's time zone (${timeZone}).`;
}

/**
 * A form moving a planned article to another publish time: a date and time in the workspace's time zone (the action
 * route turns it into the ISO instant reschedule_content takes), starting at the current slot, so changing only the
 * date keeps the time of day.
 */
export function rescheduleForm(res: Response, article: ContentArticle): SafeHtml {
  return operationForm(res, {
    operationId: 'reschedule_content',
    hidden: { contentId: article.id },
    fields: html`<label>New time for ${article.title} <input type="datetime-local" name="scheduledAt" value="${wallTimeValue(article.scheduledAt, res.locals.current!.timeZone)}" required></label> `,
    button: 'Reschedule',
    inline: true,
  });
}
