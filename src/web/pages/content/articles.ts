import type { Response } from 'express';
import type { z } from 'zod';
import type { contentList } from '../../../../tools/content/outputs.js';
import type { DashboardDeps } from '../../dashboard.js';
import { formatPercent } from '../../format.js';
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
export const RESCHEDULE_HINT = 'A new time is an ISO date-time with its offset, e.g. 2026-12-01T09:00:00Z (UTC) or 2026-12-01T10:00:00+01:00.';

/**
 * A form moving a planned article to another publish time. The time is an ISO date-time as reschedule_content takes
 * it (an offset is required, so a browser's zone-less datetime-local value cannot be sent as is); it starts at the
 * current slot, so changing only the date keeps the time of day.
 */
export function rescheduleForm(res: Response, article: ContentArticle): SafeHtml {
  return operationForm(res, {
    operationId: 'reschedule_content',
    hidden: { contentId: article.id },
    fields: html`<label>New time for ${article.title} <input type="text" name="scheduledAt" value="${article.scheduledAt.replace(/\.000Z$/, 'Z')}" required></label> `,
    button: 'Reschedule',
    inline: true,
  });
}
