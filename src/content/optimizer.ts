import MarkdownIt, { type Token } from 'markdown-it';
import type { ArticleRow } from './articles.js';
import { DEFAULT_POLICY } from './policy.js';

const DAY_MS = 86_400_000;

/** The first paragraph answers the question when it is this short or shorter. */
export const ANSWER_FIRST_MAX_WORDS = 60;
export const MIN_H2_HEADINGS = 3;
export const MIN_FAQ_ENTRIES = 3;
export const MIN_EXTERNAL_SOURCES = 2;
export const MIN_FIGURES = 3;
/** Written (or rewritten) at most this many days ago counts as fresh. */
export const FRESH_DAYS = 180;
export const META_TITLE_MAX = 60;
export const META_DESCRIPTION_MAX = 155;
/** Below this share of the policy's target word count the article counts as thin. */
export const MIN_WORD_SHARE = 0.8;

export interface ScorePoint {
  key: string;
  label: string;
  /** What the point adds to the score when met; the weights add up to 100. */
  weight: number;
  met: boolean;
  /** Why it is met or not, in words. */
  reason: string;
}

export interface CitabilityReport {
  /** 0 to 100: the sum of the weights of the met points. */
  score: number;
  points: ScorePoint[];
}

export interface HealthIssue {
  check: string;
  message: string;
}

export interface HealthReport {
  /** 0 to 100: the met share of the weights of the checks that apply to the article's status. */
  score: number;
  issues: HealthIssue[];
}

const parser = new MarkdownIt({ html: false, linkify: true });

interface BodyFacts {
  headings: number[];
  /** Text of the first paragraph when it comes before any H2 or lower heading. */
  leadParagraph: string | null;
  externalLinks: Set<string>;
  figures: { percentages: number; years: number; other: number };
}

const FIGURE = /\d+(?:[.,]\d+)*\s?%?/g;
const YEAR = /^(?:19|20)\d\d$/;

function countFigures(text: string, into: BodyFacts['figures']): void {
  for (const match of text.matchAll(FIGURE)) {
    const figure = match[0];
    if (figure.endsWith('%')) into.percentages++;
    else if (YEAR.test(figure)) into.years++;
    else into.other++;
  }
}

/** Plain text of an inline token, code spans left out. */
function inlineText(token: Token): string {
  return (token.children ?? [])
    .filter((child) => child.type === 'text')
    .map((child) => child.content)
    .join('');
}

function bodyFacts(markdown: string): BodyFacts {
  const facts: BodyFacts = { headings: [], leadParagraph: null, externalLinks: new Set(), figures: { percentages: 0, years: 0, other: 0 } };
  const tokens = parser.parse(markdown, {});
  let inHeading = false;
  let seenParagraph = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'heading_open') {
      inHeading = true;
      facts.headings.push(Number(token.tag.slice(1)));
    } else if (token.type === 'heading_close') {
      inHeading = false;
    } else if (token.type === 'inline' && !inHeading) {
      const text = inlineText(token);
      countFigures(text, facts.figures);
      for (const child of token.children ?? []) {
        const href = child.type === 'link_open' ? String(child.attrGet('href') ?? '') : '';
        if (/^https?:\/\//i.test(href)) facts.externalLinks.add(href);
      }
      const isParagraph = tokens[i - 1]?.type === 'paragraph_open' && tokens[i - 1]?.level === 0;
      if (isParagraph && !seenParagraph) {
        seenParagraph = true;
        if (!facts.headings.some((level) => level >= 2)) facts.leadParagraph = text.trim();
      }
    }
  }
  return facts;
}

function words(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

function faqCount(article: ArticleRow): number {
  return (JSON.parse(article.faq) as unknown[]).length;
}

function answerFirst(facts: BodyFacts): ScorePoint {
  const base = { key: 'answerFirst', label: 'Answer first', weight: 20 };
  const lead = facts.leadParagraph;
  if (lead === null) return { ...base, met: false, reason: 'the article does not open with a paragraph before its first section heading' };
  const count = words(lead);
  if (lead.endsWith('?')) return { ...base, met: false, reason: 'the first paragraph asks a question instead of answering it' };
  if (count > ANSWER_FIRST_MAX_WORDS) {
    return { ...base, met: false, reason: `the first paragraph has ${count} words; a direct answer takes at most ${ANSWER_FIRST_MAX_WORDS}` };
  }
  return { ...base, met: true, reason: `the first paragraph answers in ${count} words before the first section` };
}

function headingStructure(facts: BodyFacts): ScorePoint {
  const base = { key: 'headings', label: 'Heading structure', weight: 15 };
  const h2 = facts.headings.filter((level) => level === 2).length;
  const h3 = facts.headings.filter((level) => level === 3).length;
  let previous = 1;
  for (const level of facts.headings) {
    if (level > previous + 1) return { ...base, met: false, reason: `an H${level} follows an H${previous}: heading levels are skipped` };
    previous = level;
  }
  if (h2 < MIN_H2_HEADINGS) return { ...base, met: false, reason: `${h2} H2 sections; at least ${MIN_H2_HEADINGS} make the article easy to quote` };
  return { ...base, met: true, reason: `${h2} H2 sections and ${h3} H3 subsections, no level skipped` };
}

function faqPoint(article: ArticleRow): ScorePoint {
  const base = { key: 'faq', label: 'FAQ', weight: 15 };
  const count = faqCount(article);
  if (count < MIN_FAQ_ENTRIES) return { ...base, met: false, reason: `${count} FAQ entries; at least ${MIN_FAQ_ENTRIES} are needed` };
  return { ...base, met: true, reason: `${count} FAQ entries answer follow-up questions` };
}

function structuredData(article: ArticleRow): ScorePoint {
  const base = { key: 'structuredData', label: 'Structured data', weight: 15 };
  const missing = [
    article.meta_title ? null : 'meta title (the Article headline)',
    article.meta_description ? null : 'meta description (the Article description)',
  ].filter((item) => item !== null);
  if (missing.length > 0) return { ...base, met: false, reason: `the Article JSON-LD lacks a ${missing.join(' and a ')}` };
  const faq = faqCount(article);
  return { ...base, met: true, reason: `Article JSON-LD with headline and description${faq > 0 ? `, plus FAQPage for ${faq} questions` : ''}` };
}

function sources(facts: BodyFacts): ScorePoint {
  const base = { key: 'sources', label: 'External sources', weight: 15 };
  const count = facts.externalLinks.size;
  if (count < MIN_EXTERNAL_SOURCES) return { ...base, met: false, reason: `${count} links to outside sources; at least ${MIN_EXTERNAL_SOURCES} back the claims` };
  return { ...base, met: true, reason: `${count} links to outside sources back the claims` };
}

function statistics(facts: BodyFacts): ScorePoint {
  const base = { key: 'statistics', label: 'Statistics', weight: 10 };
  const { percentages, years, other } = facts.figures;
  const total = percentages + years + other;
  const detail = `${total} figures in the text (${percentages} percentages, ${years} years, ${other} other numbers)`;
  if (total < MIN_FIGURES) return { ...base, met: false, reason: `${detail}; at least ${MIN_FIGURES} are needed` };
  return { ...base, met: true, reason: detail };
}

function freshness(article: ArticleRow, now: number): ScorePoint {
  const base = { key: 'freshness', label: 'Freshness', weight: 10 };
  if (article.written_at === null) return { ...base, met: false, reason: 'not written yet' };
  const days = Math.floor((now - article.written_at) / DAY_MS);
  if (days > FRESH_DAYS) return { ...base, met: false, reason: `written ${days} days ago; older than ${FRESH_DAYS} days` };
  return { ...base, met: true, reason: `written ${days} days ago` };
}

/** How quotable the article is for answer engines, computed from the article itself. An unwritten article has no body and meets no body point. */
export function citabilityReport(article: ArticleRow, now: number): CitabilityReport {
  const facts = bodyFacts(article.markdown ?? '');
  const points = [
    answerFirst(facts),
    headingStructure(facts),
    faqPoint(article),
    structuredData(article),
    sources(facts),
    statistics(facts),
    freshness(article, now),
  ];
  return { score: points.reduce((sum, point) => sum + (point.met ? point.weight : 0), 0), points };
}

interface HealthCheck {
  check: string;
  weight: number;
  /** false: does not apply to this article (e.g. live checks before publishing). */
  applies: boolean;
  /** What is wrong; undefined when the check is met. */
  issue?: string;
}

const WEIGHT = 20;

function metaTitleCheck(article: ArticleRow): HealthCheck {
  const title = article.meta_title ?? '';
  const check = { check: 'metaTitle', weight: WEIGHT, applies: true };
  if (title === '') return { ...check, issue: 'no meta title' };
  if (title.length > META_TITLE_MAX) return { ...check, issue: `the meta title has ${title.length} characters; at most ${META_TITLE_MAX} show in results` };
  return check;
}

function metaDescriptionCheck(article: ArticleRow): HealthCheck {
  const description = article.meta_description ?? '';
  const check = { check: 'metaDescription', weight: WEIGHT, applies: true };
  if (description === '') return { ...check, issue: 'no meta description' };
  if (description.length > META_DESCRIPTION_MAX) {
    return { ...check, issue: `the meta description has ${description.length} characters; at most ${META_DESCRIPTION_MAX} show in results` };
  }
  return check;
}

function wordCountCheck(article: ArticleRow, target: number): HealthCheck {
  const minimum = Math.ceil(target * MIN_WORD_SHARE);
  const check = { check: 'wordCount', weight: WEIGHT, applies: true };
  if (article.word_count < minimum) return { ...check, issue: `${article.word_count} words; the target is ${target} (at least ${minimum})` };
  return check;
}

function internalLinksCheck(article: ArticleRow, internalLinksOut: number): HealthCheck {
  const check = { check: 'internalLinks', weight: WEIGHT, applies: article.status === 'published' };
  if (internalLinksOut < 1) return { ...check, issue: 'no internal links to other pages of the site' };
  return check;
}

function liveCheck(article: ArticleRow): HealthCheck {
  const check = { check: 'live', weight: WEIGHT, applies: article.status === 'published' };
  if (article.url === null) return { ...check, issue: 'delivered without an address: the receiver returned no URL' };
  if (article.live_check_error !== null) return { ...check, issue: `the live URL did not render the article: ${article.live_check_error}` };
  // Not checked yet (the render check runs about two minutes after publishing): nothing to hold against it yet.
  if (article.live_confirmed_at === null) return { ...check, applies: false };
  return check;
}

export interface HealthContext {
  internalLinksOut: number;
  now: number;
  /** The policy's target word count; the default policy's when left out. */
  targetWordCount?: number;
}

/**
 * Technical health of an article. Checks: meta title (present, at most 60 characters), meta description (present,
 * at most 155), word count (at least 80% of the target), and once published internal links out (at least one) and
 * the live check (an address, confirmed rendering). Each check weighs 20; the score is the met share of the checks
 * that apply, so a draft is not marked down for what only publishing can do.
 */
export function healthReport(article: ArticleRow, context: HealthContext): HealthReport {
  const checks = [
    metaTitleCheck(article),
    metaDescriptionCheck(article),
    wordCountCheck(article, context.targetWordCount ?? DEFAULT_POLICY.targetWordCount),
    internalLinksCheck(article, context.internalLinksOut),
    liveCheck(article),
  ].filter((check) => check.applies);
  const total = checks.reduce((sum, check) => sum + check.weight, 0);
  const met = checks.reduce((sum, check) => sum + (check.issue === undefined ? check.weight : 0), 0);
  return {
    score: total === 0 ? 100 : Math.round((100 * met) / total),
    issues: checks.flatMap((check) => (check.issue === undefined ? [] : [{ check: check.check, message: check.issue }])),
  };
}
