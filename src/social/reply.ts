import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, SocialSourceName } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import type { Services } from '../outsideServices.js';
import { brandMemoryPrompt } from '../brand/brandMemory.js';
import { requireWriter } from '../writer/required.js';
import { WriterError } from '../integrations/openai/chatCompletionsWriter.js';
import { recordSourceState } from './search.js';
import { findThread, threadRecord, type ThreadRow } from './threads.js';

/** The longest reply each community takes: Bluesky counts 300 graphemes; the others far more than a good reply needs. */
export const REPLY_LIMITS: Record<SocialSourceName, number> = { hackernews: 5000, stackexchange: 5000, bluesky: 300, reddit: 5000 };

/**
 * Each community's norms, given to the writer and returned with the draft for the person who posts it. Sources:
 * HN's guidelines, Stack Exchange's "How not to be a spammer", Bluesky's community guidelines, Reddit's self-promotion
 * guidance (Reddiquette and most subreddits' rules).
 */
export const COMMUNITY_NORMS: Record<SocialSourceName, readonly string[]> = {
  hackernews: [
    'Hacker News: substance over promotion; no marketing tone, no emojis, no calls to action.',
    'Link only when the link is the answer, and say plainly that it is your own product.',
  ],
  stackexchange: [
    'Stack Exchange: the answer must stand on its own in the post; link-only answers are deleted.',
    'Whenever you mention or link your own product, disclose your affiliation in the answer itself (its self-promotion rule).',
  ],
  bluesky: ['Bluesky: at most 300 characters, conversational; no hashtag lists.'],
  reddit: [
    "Reddit: read the subreddit's rules first; many forbid self-promotion outright.",
    'Disclose your affiliation; no link to your own site unless someone asks for one.',
  ],
};

const NO_LINK_SOURCES: ReadonlySet<SocialSourceName> = new Set(['reddit']);

const replyAnswer = z.object({ reply: z.string().min(1).max(6000) });

const REPLY_TASK = [
  '# Task',
  'Draft a reply a person from the brand will post, by hand, in the public thread below.',
  "Answer the thread's question first, completely and honestly, as a knowledgeable member of that community would.",
  "Mention the brand only where it truly helps the person asking, and never as the whole answer; say it is the writer's own company when you do.",
  'No greetings, no sign-off, no hashtags, no marketing language.',
].join('\n');

/** Whether the reply names the brand (its name or its site) without saying who is writing. */
function needsDisclosure(reply: string, brandName: string, siteHost: string): boolean {
  const text = reply.toLowerCase();
  const named = (brandName.trim() !== '' && text.includes(brandName.toLowerCase())) || text.includes(siteHost);
  return named && !/\b(i work (at|on|for)|i'm (one of )?the (founders?|makers?|team)|disclosure|full disclosure|i built|we built|our (product|team|company)|my (company|product))\b/.test(text);
}

function withinLimit(source: SocialSourceName, reply: string): boolean {
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(reply)].length;
  return graphemes <= REPLY_LIMITS[source];
}

/** The text as stored: a disclosure appended when the brand is named without one (every community above asks for it). */
function finalReply(thread: ThreadRow, reply: string, brandName: string, siteHost: string): { text: string; disclosureAdded: boolean } {
  const trimmed = reply.trim();
  if (!needsDisclosure(trimmed, brandName, siteHost)) return { text: trimmed, disclosureAdded: false };
  const disclosure = thread.source === 'bluesky' ? `(I work on ${brandName}.)` : `Disclosure: I work on ${brandName}.`;
  return { text: `${trimmed}${thread.source === 'bluesky' ? ' ' : '\n\n'}${disclosure}`, disclosureAdded: true };
}

/**
 * Asks the thread's source whether it is still open (a locked, deleted or archived thread is closed and refused), then
 * drafts a reply with the writer model, or stores the person's own edited text. The draft is stored on the thread and
 * moves a new or dismissed thread to `drafted`; nothing is posted.
 */
export async function draftSocialReply(
  db: Kysely<Database>,
  clock: Clock,
  services: Pick<Services, 'writer' | 'socialSources'>,
  workspaceId: string,
  request: { threadId: string; instructions?: string | undefined; text?: string | undefined },
) {
  if (request.text !== undefined && request.instructions !== undefined) throw BadInputError.field('text', 'give either text (your own reply) or instructions (for the writer model), not both');
  let thread = await findThread(db, workspaceId, request.threadId);
  if (thread.status === 'closed') throw BadInputError.field('threadId', `thread ${thread.id} is closed: the source ${thread.source_state} it`);
  const source = services.socialSources[thread.source];
  if (source !== undefined) {
    const state = (await source.states([thread.external_id])).get(thread.external_id) ?? 'deleted';
    await recordSourceState(db, clock, thread.id, state);
    if (state !== 'open') throw BadInputError.field('threadId', `thread ${thread.id} can no longer be answered: the source ${state} it`);
  }
  const brand = await db
    .selectFrom('brands')
    .innerJoin('workspaces', 'workspaces.id', 'brands.workspace_id')
    .select(['brands.name', 'workspaces.website_url'])
    .where('brands.workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const siteHost = new URL(brand.website_url).hostname.replace(/^www\./, '');
  let reply: { text: string; disclosureAdded: boolean };
  if (request.text !== undefined) {
    if (!withinLimit(thread.source, request.text)) throw BadInputError.field('text', `must be at most ${REPLY_LIMITS[thread.source]} characters for ${thread.source}`);
    reply = { text: request.text.trim(), disclosureAdded: false };
  } else {
    reply = await writeReply(db, services, workspaceId, thread, brand.name, siteHost, request.instructions);
  }
  const now = clock.now();
  await db
    .updateTable('social_threads')
    .set({
      reply_draft: reply.text,
      reply_drafted_at: now,
      updated_at: now,
      ...(thread.status === 'new' || thread.status === 'dismissed' ? { status: 'drafted' as const, status_changed_at: now } : {}),
    })
    .where('id', '=', thread.id)
    .execute();
  thread = await findThread(db, workspaceId, thread.id);
  return { thread: threadRecord(thread, now), reply: reply.text, disclosureAdded: reply.disclosureAdded, norms: [...COMMUNITY_NORMS[thread.source]] };
}

async function writeReply(
  db: Kysely<Database>,
  services: Pick<Services, 'writer'>,
  workspaceId: string,
  thread: ThreadRow,
  brandName: string,
  siteHost: string,
  instructions: string | undefined,
): Promise<{ text: string; disclosureAdded: boolean }> {
  const writer = requireWriter(services.writer);
  const rules = [
    ...COMMUNITY_NORMS[thread.source],
    `At most ${REPLY_LIMITS[thread.source]} characters.`,
    NO_LINK_SOURCES.has(thread.source) ? `Do not link to ${siteHost}.` : '',
  ].filter(Boolean);
  const user = [
    `Where: ${thread.community} (${thread.source})`,
    `Thread: ${thread.title}`,
    `URL: ${thread.url}`,
    `Text: ${thread.excerpt}`,
    '',
    '# Community norms (follow them)',
    ...rules.map((rule) => `- ${rule}`),
    instructions ? `\nWhat the user asks for: ${instructions}` : '',
  ].join('\n');
  const system = `${await brandMemoryPrompt(db, workspaceId)}\n\n${REPLY_TASK}`;
  const call = { workspaceId, purpose: 'social_reply' as const };
  let answer = await writer.structured({ system, user, schemaName: 'social_reply', schema: replyAnswer }, call);
  let reply = finalReply(thread, answer.reply, brandName, siteHost);
  if (!withinLimit(thread.source, reply.text)) {
    answer = await writer.structured({ system, user: `${user}\n\nYour last draft was too long: keep it under ${REPLY_LIMITS[thread.source] - 40} characters.`, schemaName: 'social_reply', schema: replyAnswer }, call);
    reply = finalReply(thread, answer.reply, brandName, siteHost);
    if (!withinLimit(thread.source, reply.text)) throw new WriterError(`the writer model's reply stayed over ${REPLY_LIMITS[thread.source]} characters for ${thread.source} twice`, 'bad_answer');
  }
  return reply;
}
