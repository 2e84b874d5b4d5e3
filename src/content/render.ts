import type { Kysely } from 'kysely';
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import type { Author } from '../brand/records.js';
import { fromJson } from '../shared/json.js';
import { toIso } from '../shared/time.js';
import { type InjectedLink, injectInternalLinks } from '../links/inject.js';
import { loadLinkTargets, recordInternalLinks } from '../links/targets.js';
import { liveNetworkLink, NETWORK_REL_VALUES, relatedReadingHtml, relatedReadingMarkdown } from '../network/render.js';
import type { ArticleRow } from './articles.js';

export interface FaqEntry {
  question: string;
  answer: string;
}

/** An article as it is published: sanitised HTML with internal links, Markdown, FAQ, JSON-LD for the page head. */
export interface RenderedArticle {
  html: string;
  markdown: string;
  faq: FaqEntry[];
  /** JSON text for a `<script type="application/ld+json">` in the page head: an Article, and a FAQPage when there is a FAQ. */
  schemaJsonLd: string;
  language: string;
  author: Author | null;
  links: InjectedLink[];
}

// html: false escapes raw HTML the model may write; markdown-it's own link check drops javascript:, vbscript: and data: links.
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const TEXT_ALIGN = { 'text-align': [/^(?:left|right|center)$/] };

/** Defence in depth behind markdown-it: only what Markdown itself produces gets through, and links only to http(s) and mail. */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'ul', 'ol', 'li', 'section'],
    ...['strong', 'em', 's', 'code', 'pre', 'a', 'img'],
    ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ],
  allowedAttributes: {
    // rel only with the values a network link carries: the attributes Google asks compensated links to have.
    a: ['href', 'title', { name: 'rel', multiple: false, values: [...NETWORK_REL_VALUES] }],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    code: ['class'],
    section: ['class'],
    th: ['style'],
    td: ['style'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/], section: ['faq'] },
  allowedStyles: { th: TEXT_ALIGN, td: TEXT_ALIGN },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https', 'http'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

const escapeHtml = markdown.utils.escapeHtml;

/** Article HTML cut down to what Markdown produces: the published body, and any page that shows it again. */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

function faqHtml(faq: FaqEntry[]): string {
  if (faq.length === 0) return '';
  const entries = faq.map((entry) => `<h3>${escapeHtml(entry.question)}</h3>\n<p>${escapeHtml(entry.answer)}</p>\n`).join('');
  return `<section class="faq">\n<h2>FAQ</h2>\n${entries}</section>\n`;
}

function faqMarkdown(faq: FaqEntry[]): string {
  if (faq.length === 0) return '';
  return `\n\n## FAQ\n\n${faq.map((entry) => `### ${entry.question}\n\n${entry.answer}`).join('\n\n')}\n`;
}

interface Publisher {
  name: string;
  url: string;
}

async function readPublisher(db: Kysely<Database>, workspaceId: string): Promise<Publisher> {
  const row = await db
    .selectFrom('workspaces')
    .innerJoin('brands', 'brands.workspace_id', 'workspaces.id')
    .select(['brands.name', 'workspaces.website_url'])
    .where('workspaces.id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return { name: row.name, url: row.website_url };
}

function personLd(author: Author) {
  return {
    '@type': 'Person',
    name: author.name,
    ...(author.bio ? { description: author.bio } : {}),
    ...(author.linkedinUrl ? { sameAs: [author.linkedinUrl] } : {}),
  };
}

/** Article (and FAQPage) JSON-LD; `<` is escaped so the text is safe inside a script element and still the same JSON. */
function schemaJsonLd(article: ArticleRow, faq: FaqEntry[], author: Author | null, publisher: Publisher, canonicalUrl: string | null, now: number): string {
  const graph: object[] = [
    {
      '@type': 'Article',
      headline: article.title,
      ...(article.meta_description ? { description: article.meta_description } : {}),
      ...(author ? { author: personLd(author) } : {}),
      datePublished: toIso(article.published_at ?? now),
      dateModified: toIso(now),
      inLanguage: article.language,
      keywords: fromJson<string[]>(article.keywords).join(', '),
      ...(canonicalUrl ? { mainEntityOfPage: { '@type': 'WebPage', '@id': canonicalUrl }, url: canonicalUrl } : {}),
      publisher: { '@type': 'Organization', name: publisher.name, url: publisher.url },
    },
  ];
  if (faq.length > 0) {
    graph.push({
      '@type': 'FAQPage',
      mainEntity: faq.map((entry) => ({ '@type': 'Question', name: entry.question, acceptedAnswer: { '@type': 'Answer', text: entry.answer } })),
    });
  }
  return JSON.stringify({ '@context': 'https://schema.org', '@graph': graph }).replace(/</g, '\\u003c');
}

/**
 * Renders a written article for publishing: Markdown to sanitised HTML with internal links injected (and recorded in
 * internal_links, replacing the article's previous set), the live link-network placement as a "Related reading"
 * paragraph, the FAQ appended, and the JSON-LD for the page head. A preview (`recordLinks: false`) renders the same
 * page and records nothing.
 * Runs inside the caller's transaction.
 */
export async function renderArticle(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  article: ArticleRow,
  options: { canonicalUrl: string | null; recordLinks?: boolean },
): Promise<RenderedArticle> {
  if (article.markdown === null) throw BadInputError.field('contentId', `article ${article.id} is not written yet; write it with generate_article first`);
  const faq = fromJson<FaqEntry[]>(article.faq);
  const author = article.author === null ? null : fromJson<Author>(article.author);
  const env = {};
  const tokens = markdown.parse(article.markdown, env);
  const links = injectInternalLinks(tokens, await loadLinkTargets(db, workspaceId, article, options.canonicalUrl));
  if (options.recordLinks !== false) await recordInternalLinks(db, clock, workspaceId, article.id, links);
  const networkLink = await liveNetworkLink(db, article.id);
  const html = sanitizeArticleHtml(markdown.renderer.render(tokens, markdown.options, env) + relatedReadingHtml(networkLink) + faqHtml(faq));
  return {
    html,
    markdown: article.markdown.trimEnd() + relatedReadingMarkdown(networkLink) + faqMarkdown(faq),
    faq,
    schemaJsonLd: schemaJsonLd(article, faq, author, await readPublisher(db, workspaceId), options.canonicalUrl, clock.now()),
    language: article.language,
    author,
    links,
  };
}
