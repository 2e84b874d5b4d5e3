import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import { modelText, modelTextList } from '../writer/answerFields.js';
import { brandMemoryPrompt } from './brandMemory.js';
import type { Writer } from '../writer/model.js';
import { textKey } from '../content/articles.js';
import type { IcpFields } from './icps.js';

/** The buyer-profile fields write_brand_icp accepts, in the order a draft lists them. */
export const BUYER_PROFILE_KEYS = ['title', 'industry', 'companySize', 'painPoints', 'buyingTriggers', 'objections', 'preferredChannels', 'demographics'] as const;
type BuyerProfileKey = (typeof BUYER_PROFILE_KEYS)[number];
type BuyerProfileDraft = Required<IcpFields>;

export const MAX_SUGGESTIONS = 8;

// Within write_brand_icp's limits, so a reviewed draft saves as it is.
const draftAnswer = z.object({
  title: modelText(200, 'Who the buyer is, e.g. "Head of marketing at a B2B SaaS"'),
  industry: modelText(200, "The buyer's industry in free text"),
  companySize: modelText(100, 'Company size, e.g. "50-200 employees"'),
  painPoints: modelTextList(6, 300, 'Problems the buyer has that the brand solves'),
  buyingTriggers: modelTextList(6, 300, 'Events that make the buyer look for a solution'),
  objections: modelTextList(6, 300, 'Reasons the buyer hesitates to buy'),
  preferredChannels: modelTextList(6, 300, 'Where the buyer looks for information'),
  demographics: z
    .object({
      ageRange: modelText(200, 'Typical age range, e.g. "30-45"'),
      seniority: modelText(200, 'Typical seniority, e.g. "Director"'),
      department: modelText(200, 'Typical department, e.g. "Marketing"'),
    })
    .describe('Who the buyer is as a person'),
});

const suggestionsAnswer = z.object({
  suggestions: z
    .array(
      z.object({
        title: modelText(200, 'Who the buyer is, e.g. "Head of marketing at a B2B SaaS"'),
        industry: modelText(200, "The buyer's industry in free text"),
        who: modelText(300, 'One sentence: who they are and why they need what the brand offers'),
      }),
    )
    .max(2 * MAX_SUGGESTIONS)
    .describe(`${MAX_SUGGESTIONS} distinct audiences`),
});

export type AudienceSuggestion = z.output<typeof suggestionsAnswer>['suggestions'][number];

export interface DraftRequest {
  describe?: string;
  title?: string;
  who?: string;
  given?: IcpFields;
}

const DRAFT_TASK =
  '# Task\nYou draft buyer profiles (ideal customer profiles): specific, realistic readers of the brand\'s articles who could buy what it offers. ' +
  'Write every field in the language named in the brand memory. Keep list items short, 3 to 5 per list. Answer with JSON only.';

/**
 * A buyer profile to review: the fields in `given` (and `title`) exactly as sent, empty values included; only the
 * others are asked of the writer model. Nothing is saved: write_brand_icp saves the reviewed draft.
 */
export async function draftBuyerProfile(db: Kysely<Database>, writer: Writer, workspaceId: string, request: DraftRequest) {
  const given: IcpFields = { ...(request.title === undefined ? {} : { title: request.title }), ...request.given };
  const kept = BUYER_PROFILE_KEYS.filter((key) => given[key] !== undefined);
  const missing = BUYER_PROFILE_KEYS.filter((key) => given[key] === undefined);
  let filled: Partial<BuyerProfileDraft> = {};
  if (missing.length > 0) {
    const mask = Object.fromEntries(missing.map((key) => [key, true])) as Record<BuyerProfileKey, true>;
    filled = await writer.structured(
      {
        system: `${await brandMemoryPrompt(db, workspaceId)}\n\n${DRAFT_TASK}`,
        user: [
          'Draft one buyer profile for this brand.',
          request.describe ? `The audience, as the user describes it: ${request.describe}` : '',
          request.who ? `Who they are: ${request.who}` : '',
          kept.length > 0 ? `Fields already decided, to stay consistent with: ${JSON.stringify(given)}` : '',
          `Fill in: ${missing.join(', ')}.`,
        ]
          .filter(Boolean)
          .join('\n'),
        schemaName: 'buyer_profile',
        schema: draftAnswer.pick(mask),
      },
      { workspaceId, purpose: 'draft_icp' },
    );
  }
  // Every key is either given or asked of the model, whose answer schema requires each key it was asked for.
  const draft = Object.fromEntries(BUYER_PROFILE_KEYS.map((key) => [key, given[key] ?? filled[key]])) as BuyerProfileDraft;
  return { draft, kept, filled: missing, saved: false as const };
}

/**
 * Up to 8 audiences the brand could write for, none of them already shown (`exclude`) or already a buyer profile.
 * The model is told which to leave out, and its answer is filtered anyway. Nothing is saved.
 */
export async function suggestAudiences(db: Kysely<Database>, writer: Writer, workspaceId: string, exclude: readonly string[]) {
  const existing = await db.selectFrom('brand_icps').select('title').where('workspace_id', '=', workspaceId).execute();
  const leaveOut = [...exclude, ...existing.map((row) => row.title)];
  const answer = await writer.structured(
    {
      system: `${await brandMemoryPrompt(db, workspaceId)}\n\n${DRAFT_TASK}`,
      user: [
        `Suggest ${MAX_SUGGESTIONS} distinct audiences this brand should write articles for, each a different kind of buyer.`,
        leaveOut.length > 0 ? `Do not suggest these, or rewordings of them: ${leaveOut.map((title) => JSON.stringify(title)).join(', ')}.` : '',
      ]
        .filter(Boolean)
        .join('\n'),
      schemaName: 'audience_suggestions',
      schema: suggestionsAnswer,
    },
    { workspaceId, purpose: 'suggest_icps' },
  );
  const seen = new Set(leaveOut.map(textKey));
  const suggestions: AudienceSuggestion[] = [];
  for (const suggestion of answer.suggestions) {
    const key = textKey(suggestion.title);
    if (seen.has(key)) continue;
    seen.add(key);
    suggestions.push(suggestion);
  }
  return { suggestions: suggestions.slice(0, MAX_SUGGESTIONS) };
}
