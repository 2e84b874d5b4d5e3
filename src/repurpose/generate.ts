import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, RepurposeChannel } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { DryRunNote } from '../shared/dryRun.js';
import { findArticle, type ArticleRow } from '../content/articles.js';
import { BadInputError, ServiceError } from '../errors.js';
import { brandMemoryPrompt } from '../brand/brandMemory.js';
import type { Writer } from '../writer/model.js';
import { CHANNEL_FORMS, formProblem, taggedLink } from './channels.js';
import { draftRecord, newDraftRow, type DraftRow } from './drafts.js';

/** How much of the article the writer reads: enough for the argument of a long post, not the whole of a very long one. */
const ARTICLE_IN_PROMPT = 12_000;
/** Between the last part's text and the link the service appends to it. */
const LINK_SEPARATOR = '\n\n';

export interface GenerateRequest {
  contentId: string;
  channels: readonly RepurposeChannel[];
  instructions?: string | undefined;
}

interface Source {
  article: ArticleRow & { url: string };
  links: Map<RepurposeChannel, string>;
}

/** The article, if it is published with a live URL, and its tagged link per channel (campaign: the article's slug). */
async function sourceOf(db: Kysely<Database>, workspaceId: string, request: GenerateRequest): Promise<Source> {
  const article = await findArticle(db, workspaceId, request.contentId);
  if (article.status !== 'published' || article.url === null) {
    throw BadInputError.field('contentId', `must be a published article with a live URL; this one is ${article.status}${article.status === 'published' ? ' without a live URL yet' : ''}`);
  }
  const url = article.url;
  return { article: { ...article, url }, links: new Map(request.channels.map((channel) => [channel, taggedLink(url, channel, article.slug)])) };
}

export async function describeGeneration(db: Kysely<Database>, workspaceId: string, request: GenerateRequest): Promise<DryRunNote> {
  const { article, links } = await sourceOf(db, workspaceId, request);
  const count = request.channels.length;
  return {
    note: `Would draft ${count} post${count === 1 ? '' : 's'} (${request.channels.join(', ')}) from "${article.title}" with the writer model, each linking to the article with its channel's UTM tags, and store them as drafts; nothing is posted or pushed.`,
    details: {
      drafts: count,
      article: { contentId: article.id, title: article.title, url: article.url },
      channels: request.channels.map((channel) => ({ channel, maxParts: CHANNEL_FORMS[channel].maxParts, maxChars: CHANNEL_FORMS[channel].maxChars, linkUrl: links.get(channel)! })),
    },
  };
}

/** The parts as they are posted: the link closes the last part, unless the writer already put it there. */
export function withLink(parts: readonly string[], link: string): string[] {
  const texts = parts.map((part) => part.trim());
  const last = texts.length - 1;
  if (last < 0 || texts[last]!.includes(link)) return texts;
  return [...texts.slice(0, last), `${texts[last]}${LINK_SEPARATOR}${link}`];
}

/** What the writer is told about a channel: its form, and the limits with the link's room taken off the last part. */
function channelBrief(channel: RepurposeChannel, link: string): string {
  const form = CHANNEL_FORMS[channel];
  const lastRoom = form.maxChars - link.length - LINK_SEPARATOR.length;
  const parts = form.maxParts === 1 ? 'exactly one part' : `1 to ${form.maxParts} parts (one part unless the point needs a thread)`;
  return `- ${channel}: ${form.form}. ${parts}; each part at most ${form.maxChars} characters, the last at most ${lastRoom} (the link is added after it).`;
}

const TASK = [
  '# Task',
  "You turn the brand's published article into social posts, one draft per channel listed, each in that channel's own form and register.",
  'Each post stands on its own for someone who has not read the article: lead with the most useful point or a concrete detail from the article, not with "new post" or "check out".',
  'Use only facts from the article and the brand memory. No hashtags unless the channel form asks for them, no emoji strings, no placeholders in brackets.',
  'Do not write any URL: the link to the article is appended to the last part of every draft.',
  'Stay within every limit given: a part over its limit is refused.',
  'Answer with the parts of each draft in order.',
].join('\n');

function answerSchema(channels: readonly RepurposeChannel[], links: Map<RepurposeChannel, string>) {
  return z.object({
    drafts: z.object(
      Object.fromEntries(channels.map((channel) => [channel, z.array(z.string()).min(1).describe(channelBrief(channel, links.get(channel)!))])) as Record<RepurposeChannel, z.ZodArray<z.ZodString>>,
    ),
  });
}

/** Which channel's parts break their limits, and how. */
function problems(drafts: Map<RepurposeChannel, string[]>): Map<RepurposeChannel, string> {
  const found = new Map<RepurposeChannel, string>();
  for (const [channel, parts] of drafts) {
    const problem = formProblem(channel, parts);
    if (problem !== undefined) found.set(channel, problem);
  }
  return found;
}

/**
 * Drafts the article for each channel with the writer model and stores the drafts. One call drafts every channel: the
 * article, by far the largest part of the prompt, is read once, and the model can give each channel its own angle
 * instead of the same opening seven times. Drafts over a channel's limit get one more call that shows only those
 * drafts and their problems (not the article again); still over, the call is refused and nothing is stored, because a
 * draft the channel would truncate or reject is worse than none. Runs outside any transaction (the writer is slow).
 */
export async function generateDrafts(db: Kysely<Database>, clock: Clock, writer: Writer, workspaceId: string, request: GenerateRequest) {
  const { article, links } = await sourceOf(db, workspaceId, request);
  const system = `${await brandMemoryPrompt(db, workspaceId)}\n\n${TASK}`;
  const call = { workspaceId, purpose: 'repurpose' as const };
  const first = await writer.structured(
    {
      system,
      user: [
        `Article: "${article.title}"`,
        article.meta_description ? `Summary: ${article.meta_description}` : '',
        '',
        (article.markdown ?? '').slice(0, ARTICLE_IN_PROMPT),
        '',
        'Channels:',
        ...request.channels.map((channel) => channelBrief(channel, links.get(channel)!)),
        request.instructions ? `\nWhat the user asks for: ${request.instructions}` : '',
      ]
        .filter((line, index, all) => line !== '' || all[index - 1] !== '')
        .join('\n'),
      schemaName: 'repurpose_drafts',
      schema: answerSchema(request.channels, links),
    },
    call,
  );
  const drafts = new Map(request.channels.map((channel) => [channel, withLink(first.drafts[channel] ?? [], links.get(channel)!)]));

  const overLimit = problems(drafts);
  if (overLimit.size > 0) {
    const retried = [...overLimit.keys()];
    const second = await writer.structured(
      {
        system,
        user: [
          'These drafts break their channel limits. Rewrite each so that it fits, keeping its point and voice; answer without the link.',
          ...retried.map((channel) => `\n${channelBrief(channel, links.get(channel)!)}\nProblem: ${overLimit.get(channel)}\nThe draft:\n${drafts.get(channel)!.map((part, index) => `[part ${index + 1}] ${part.replace(links.get(channel)!, '').trim()}`).join('\n')}`),
        ].join('\n'),
        schemaName: 'repurpose_drafts',
        schema: answerSchema(retried, links),
      },
      call,
    );
    for (const channel of retried) drafts.set(channel, withLink(second.drafts[channel] ?? [], links.get(channel)!));
    const still = problems(drafts);
    if (still.size > 0) {
      const [channel, problem] = [...still][0]!;
      throw new ServiceError(503, `the writer model's ${channel} draft broke the channel's limits twice (${problem}); nothing was stored: try again, or ask for shorter posts in instructions`);
    }
  }

  const now = clock.now();
  const rows: DraftRow[] = request.channels.map((channel) => ({
    ...newDraftRow({ workspaceId, contentId: article.id, channel, parts: drafts.get(channel)!, linkUrl: links.get(channel)!, now }),
    article_title: article.title,
  }));
  // One statement for all drafts: they are stored together or not at all.
  await db
    .insertInto('repurpose_drafts')
    .values(rows.map(({ article_title: _title, ...row }) => row))
    .execute();
  return { drafts: rows.map(draftRecord) };
}
