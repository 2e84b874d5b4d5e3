import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { internalLinks, optimizerReport } from '../../../../tools/content/outputs.js';
import { sanitizeArticleHtml } from '../../../content/render.js';
import { NotFoundError } from '../../../errors.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, SafeHtml } from '../../html.js';
import { dataOrNotice, dataView, operationForm, showPage } from '../../kit.js';
import { callOperation } from '../../operations.js';
import { type ContentArticle, listArticles, rescheduleHint, rescheduleForm, scoreText, statusText } from './articles.js';

/** A written article as publish_content would send it now. */
interface Preview {
  metaTitle: string | null;
  metaDescription: string | null;
  html: string;
}

/** The body and meta of a written article (draft or published), rendered as it would be published now. */
async function previewOf(deps: DashboardDeps, res: Response, article: ContentArticle): Promise<Preview | undefined> {
  if ((article.status !== 'draft' && article.status !== 'published') || article.writing) return undefined;
  const answer = await callOperation(deps, res, 'preview_article', { contentId: article.id });
  return answer.ok ? (answer.data as unknown as Preview) : undefined;
}

function metaSection(res: Response, article: ContentArticle, published: Preview | undefined): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  const written = article.status === 'draft' || article.status === 'published';
  const editForm = operationForm(res, {
    operationId: 'update_article_meta',
    hidden: { contentId: article.id },
    fields: html`<label>Title <input type="text" name="title" value="${article.title}" maxlength="200"></label>
<label>Meta title (at most 60 characters) <input type="text" name="metaTitle" value="${published?.metaTitle ?? ''}" maxlength="60"></label>
<label>Meta description (at most 155 characters) <textarea name="metaDescription" rows="3" maxlength="155">${published?.metaDescription ?? ''}</textarea></label>`,
    button: 'Check the change',
    id: 'meta-form',
  });
  return html`<h2>Meta</h2>
<dl class="data">
<dt>Status</dt><dd>${statusText(article)}</dd>
<dt>Keyword</dt><dd>${article.keyword}</dd>
<dt>Content type</dt><dd>${article.contentType}</dd>
<dt>Slug</dt><dd>${article.slug}</dd>
<dt>Publish slot</dt><dd>${formatTime(article.scheduledAt, timeZone)}</dd>
<dt>Published</dt><dd>${formatTime(article.publishedAt, timeZone)}</dd>
<dt>Live address</dt><dd>${article.url === null ? html`<span class="muted">none yet</span>` : html`<a href="${article.url}">${article.url}</a>`}</dd>
<dt>Live check</dt><dd>${formatTime(article.liveConfirmedAt, timeZone)}</dd>
<dt>Words</dt><dd>${formatNumber(article.wordCount, 0)}</dd>
<dt>Written</dt><dd>${formatTime(article.writtenAt, timeZone)}</dd>
${published === undefined ? '' : html`<dt>Meta title</dt><dd>${published.metaTitle ?? '—'}</dd><dt>Meta description</dt><dd>${published.metaDescription ?? '—'}</dd>`}
${article.lastWriteError === null ? '' : html`<dt>Last write failure</dt><dd>${article.lastWriteError}</dd>`}
${article.google === null ? '' : html`<dt>Google (28 days)</dt><dd>${formatNumber(article.google.clicks, 0)} clicks, ${formatNumber(article.google.impressions, 0)} impressions, average position ${formatNumber(article.google.position)}</dd>`}
</dl>
${written ? html`<h3>Change the title or meta</h3><p class="muted">Fields you leave as they are do not change. You see what would change before it is saved; a published article is sent to its destinations again.${
    published === undefined ? ' The meta title and description show once the article is written.' : ''
  }</p>${editForm}` : ''}`;
}

async function healthSection(deps: DashboardDeps, res: Response, article: ContentArticle): Promise<SafeHtml> {
  if (article.status === 'planned') return html`<h2>Health and citability</h2><p class="muted">Not written yet: the report reads a written article.</p>`;
  const report = await dataOrNotice<z.infer<typeof optimizerReport>>(deps, res, 'get_content_optimizer', { contentId: article.id });
  if ('notice' in report) return html`<h2>Health and citability</h2>${report.notice}`;
  const { health, citability } = report.data;
  return html`<h2>Health and citability</h2>
<div class="cards"><div class="card"><p>Health</p><p class="figure" id="health-score">${scoreText(health.score)}</p></div><div class="card"><p>Citability</p><p class="figure" id="citability-score">${scoreText(citability.score)}</p></div></div>
<h3>Health issues</h3>
${health.issues.length === 0 ? html`<p>No issues.</p>` : html`<ul id="health-issues">${health.issues.map((issue) => html`<li>${issue.message}</li>`)}</ul>`}
<h3>Citability points</h3>
<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">Point</th><th scope="col" class="num">Weight</th><th scope="col">Met</th><th scope="col">Why</th></tr></thead>
<tbody>${citability.points.map((point) => html`<tr><th scope="row">${point.label}</th><td class="num">${formatNumber(point.weight, 0)}</td><td>${point.met ? 'yes' : 'no'}</td><td>${point.reason}</td></tr>`)}</tbody></table></div>`;
}

async function linksSection(deps: DashboardDeps, res: Response, article: ContentArticle): Promise<SafeHtml> {
  const links = await dataOrNotice<z.infer<typeof internalLinks>>(deps, res, 'get_internal_links', { contentId: article.id });
  if ('notice' in links) return html`<h2>Internal links</h2>${links.notice}`;
  const { sources, targets } = links.data;
  return html`<h2>Internal links</h2>
<h3>Linked from (${formatNumber(sources.length, 0)})</h3>${dataView(sources.map(({ title, anchorText, url }) => ({ title, anchorText, url })))}
<h3>Links out (${formatNumber(targets.length, 0)})</h3>${dataView(targets.map(({ url, anchorText }) => ({ url, anchorText })))}`;
}

/**
 * The article's headings two levels down, so its h1 and h2 sit under the page's "Preview" heading: a page has one
 * h1 and its headings in order. Sanitised HTML has headings without attributes.
 */
function underPreviewHeading(body: string): string {
  return body.replace(/<(\/?)h([1-6])>/g, (_tag, close: string, level: string) => `<${close}h${Math.min(Number(level) + 2, 6)}>`);
}

function previewSection(published: Preview | undefined): SafeHtml {
  const body = published?.html ?? null;
  if (body === null) {
    return html`<h2>Preview</h2><p class="muted">The preview appears once the article is written.</p>`;
  }
  // Sanitised again here, as the page's own defence: the stored body is shown as markup.
  return html`<h2>Preview</h2><div class="preview" id="preview">${new SafeHtml(underPreviewHeading(sanitizeArticleHtml(body)))}</div>`;
}

function actionsSection(res: Response, article: ContentArticle): SafeHtml {
  const contentId = article.id;
  const workspaceId = res.locals.current!.workspaceId;
  const planned = article.status === 'planned' && !article.writing;
  const written = (article.status === 'draft' || article.status === 'published') && !article.writing;
  const actions = [
    planned ? rescheduleForm(res, article) : '',
    planned ? operationForm(res, { operationId: 'generate_article', hidden: { contentId }, button: 'Generate now', id: 'generate-form' }) : '',
    written ? operationForm(res, { operationId: 'publish_content', hidden: { contentId }, button: article.status === 'published' ? 'Publish again' : 'Publish', id: 'publish-form' }) : '',
    planned
      ? operationForm(res, { operationId: 'delete_planned_title', hidden: { contentId }, button: 'Delete this planned title', buttonClass: 'danger', back: `/w/${workspaceId}/content` })
      : '',
    article.status !== 'archived' && !article.writing
      ? operationForm(res, { operationId: 'archive_content', hidden: { contentId }, button: 'Archive for good', buttonClass: 'danger' })
      : '',
  ];
  return html`<h2>Actions</h2>
<p class="muted">Generating and publishing show what would happen first; nothing changes until you confirm.${planned ? ` ${rescheduleHint(res.locals.current!.timeZone)}` : ''}</p>
${actions}`;
}

/** One article: its meta, health and citability, internal links, a preview of the body as it would be published, and what can be done with it. */
export async function articlePage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const contentId = String(req.params.contentId);
  const article = (await listArticles(deps, res)).find((candidate) => candidate.id === contentId);
  if (article === undefined) throw new NotFoundError('article', contentId);
  const published = await previewOf(deps, res, article);
  const body = html`<p><a href="/w/${res.locals.current!.workspaceId}/content">Back to the calendar</a></p>
${metaSection(res, article, published)}
${await healthSection(deps, res, article)}
${await linksSection(deps, res, article)}
${previewSection(published)}
${actionsSection(res, article)}`;
  showPage(deps, res, article.title, body, { at: 'content' });
}
