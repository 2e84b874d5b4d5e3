import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import { sha256Hex } from '../../secrets.js';
import { DAY_MS } from '../../shared/time.js';
import type { Writer } from '../../writer/model.js';
import type { DigestFigures } from './compute.js';

const percent = (share: number) => `${Math.round(share * 1000) / 10} %`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The digest's summary in plain sentences, made from the figures alone: what is said when no writer model phrases it. */
export function templateSummary(figures: DigestFigures): string {
  const { week, visibility, changes, wins, losses, agents, next } = figures;
  const sentences: string[] = [];
  if (visibility.score === null) {
    sentences.push(`From ${week.from} to ${week.to} no answers were checked, so there is no visibility score for the week.`);
  } else {
    const range = visibility.range === null ? '' : ` (range ${visibility.range.low} to ${visibility.range.high})`;
    const before = visibility.previousScore === null ? '' : `, against ${visibility.previousScore} the week before`;
    sentences.push(`From ${week.from} to ${week.to} the visibility score was ${visibility.score}${range}${before}.`);
    const mention = visibility.mentionRate;
    if (mention.rate !== null && mention.interval !== null) {
      const move = visibility.mentionRateChange === 'up' ? ', a rise beyond the noise' : visibility.mentionRateChange === 'down' ? ', a fall beyond the noise' : '';
      sentences.push(
        `AI answers named the brand in ${mention.count} of ${mention.of} answers, ${percent(mention.rate)} (95 % interval ${percent(mention.interval.low)} to ${percent(mention.interval.high)})${move}.`,
      );
    }
  }
  const urgent = changes.bySeverity.critical === 0 ? '' : `, ${changes.bySeverity.critical} of them critical`;
  sentences.push(`Sightline noticed ${plural(changes.total, 'change')}${urgent}; ${plural(wins.changes.length, 'win')} and ${plural(losses.changes.length, 'loss', 'losses')} in citations and ranks.`);
  sentences.push(`The agents ran ${plural(agents.runs, 'job')}${agents.failed === 0 ? '' : `, ${agents.failed} failed`}.`);
  if (next.length > 0) sentences.push(`Next: write about \u201c${next[0]!.queryText}\u201d, the content idea with the highest score (${next[0]!.score}).`);
  return sentences.join(' ');
}

/** Every number the summary may contain: those of the template, which come from the figures. */
function allowedNumbers(template: string): Set<string> {
  return new Set(numbersIn(template));
}

function numbersIn(text: string): string[] {
  // Dates are split into their parts: 2026-11-16 gives 2026, 11 and 16, each of which the template holds too.
  return [...text.matchAll(/\d+(?:[.,]\d+)*/g)].map((match) => match[0].replace(/,/g, ''));
}

const SUMMARY_TASK =
  'You write the two- or three-sentence summary at the top of a weekly email about a website\u2019s visibility in AI answers. ' +
  'You are given the week\u2019s figures as plain sentences. Rephrase them for a busy site owner: the most important first, plain words, no headings, no lists, no greetings. ' +
  'Use only the numbers given, written exactly as given; never compute, round or add a number, and never add a fact that is not given.';

const summaryAnswer = z.object({ summary: z.string().min(1).max(800) });

export interface DigestSummary {
  text: string;
  /** Who wrote the words: the writer model phrasing the figures, or the plain template. */
  by: 'writer' | 'template';
  model: string | null;
}

/** A phrasing kept this long is dropped when the workspace's next one is stored; an older week asked again is phrased again. */
const PHRASING_KEPT_MS = 90 * DAY_MS;

interface SummaryStore {
  db: Kysely<Database>;
  workspaceId: string;
  now: number;
}

/**
 * The writer's phrasing of these exact figures, asked once and kept: every recipient of the week's digest and every
 * get_digest call read the same words. Two instances asking at once both call the model; the first phrasing stored is
 * the one both return.
 */
async function keptPhrasing(store: SummaryStore, writer: Writer, template: string, phrase: () => Promise<string>): Promise<DigestSummary> {
  const { db, workspaceId, now } = store;
  const figuresHash = sha256Hex(`${writer.model}\n${template}`);
  const kept = () => db.selectFrom('digest_summaries').select(['text', 'model']).where('workspace_id', '=', workspaceId).where('figures_hash', '=', figuresHash).executeTakeFirst();
  const found = await kept();
  if (found !== undefined) return { text: found.text, by: 'writer', model: found.model };
  const text = await phrase();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('digest_summaries').where('workspace_id', '=', workspaceId).where('created_at', '<', now - PHRASING_KEPT_MS).execute();
    await trx
      .insertInto('digest_summaries')
      .values({ workspace_id: workspaceId, figures_hash: figuresHash, text, model: writer.model, created_at: now })
      .onConflict((oc) => oc.columns(['workspace_id', 'figures_hash']).doNothing())
      .execute();
  });
  const stored = (await kept())!;
  return { text: stored.text, by: 'writer', model: stored.model };
}

/** The writer's text, or the reason it may not be used: a number the template's figures do not hold. */
async function phrased(writer: Writer, template: string, workspaceId: string): Promise<string> {
  const answer = await writer.structured(
    { system: SUMMARY_TASK, user: template, schemaName: 'digest_summary', schema: summaryAnswer, temperature: 0, maxTokens: 400 },
    { workspaceId, purpose: 'digest_summary' },
  );
  const allowed = allowedNumbers(template);
  const invented = numbersIn(answer.summary).filter((n) => !allowed.has(n));
  if (invented.length > 0) throw new Error(`the writer's summary has numbers the figures do not: ${invented.join(', ')}`);
  return answer.summary.trim();
}

/**
 * The summary: the writer model phrases the template's sentences when it is configured, else (and whenever it fails,
 * or its text holds a number the figures do not) the template itself. A failed phrasing is not kept, so the next
 * reader asks again.
 */
export async function digestSummary(figures: DigestFigures, writer: Writer | undefined, store: SummaryStore, onWriterFailure: (error: unknown) => void): Promise<DigestSummary> {
  const template = templateSummary(figures);
  const plain: DigestSummary = { text: template, by: 'template', model: null };
  if (writer === undefined) return plain;
  try {
    return await keptPhrasing(store, writer, template, () => phrased(writer, template, store.workspaceId));
  } catch (error) {
    onWriterFailure(error);
    return plain;
  }
}
