import type { Kysely } from 'kysely';
import type { Database, EngineName } from '../../../db/schema.js';
import { BRAND_SUBJECT, loadSubjects } from '../checks/subjects.js';
import type { MetricWindow } from './window.js';

/** What the metrics are computed from: sums of visibility_daily rows. */
export interface Counts {
  /** Answers the engines gave (failed checks and search pages without an AI answer not included). */
  checked: number;
  failed: number;
  /** Checks whose search page showed no AI answer (Google's AI overview, Copilot on Bing). */
  notShown: number;
  answersWithCitations: number;
  cited: number;
  /** Mentioned without being cited: cited and mentioned never overlap. */
  mentioned: number;
  positive: number;
  neutral: number;
  negative: number;
  sentimentScoreSum: number;
}

export const ZERO: Counts = { checked: 0, failed: 0, notShown: 0, answersWithCitations: 0, cited: 0, mentioned: 0, positive: 0, neutral: 0, negative: 0, sentimentScoreSum: 0 };

export function addCounts(a: Counts, b: Counts): Counts {
  return {
    checked: a.checked + b.checked,
    failed: a.failed + b.failed,
    notShown: a.notShown + b.notShown,
    answersWithCitations: a.answersWithCitations + b.answersWithCitations,
    cited: a.cited + b.cited,
    mentioned: a.mentioned + b.mentioned,
    positive: a.positive + b.positive,
    neutral: a.neutral + b.neutral,
    negative: a.negative + b.negative,
    sentimentScoreSum: a.sentimentScoreSum + b.sentimentScoreSum,
  };
}

export interface DailyRow extends Counts {
  day: number;
  engine: EngineName;
  subjectId: string;
}

export interface Subject {
  /** `brand` or the competitor's id. */
  id: string;
  name: string;
  /** Website host without `www.`; answers citing it or a subdomain cite the subject. */
  domain: string;
}

/** The brand and the competitors tracked now; removed competitors are left out of every metric. */
export interface Subjects {
  brand: Subject;
  competitors: Subject[];
}

export async function metricSubjects(db: Kysely<Database>, workspaceId: string): Promise<Subjects> {
  const [brand, ...competitors] = (await loadSubjects(db, workspaceId)).subjects.map((s) => ({ id: s.id, name: s.name, domain: s.domains[0] ?? '' }));
  return { brand: brand!, competitors };
}

/**
 * The pre-aggregated rows of the window, for the brand and the current competitors: at most days x engines x
 * subjects rows (990 for 90 days of daily checks on six engines with ten competitors), never the answers themselves.
 */
export async function loadDaily(db: Kysely<Database>, workspaceId: string, window: MetricWindow, engine: EngineName | undefined, subjects: Subjects): Promise<DailyRow[]> {
  let query = db
    .selectFrom('visibility_daily')
    .select(['day', 'engine', 'subject_id', 'answers', 'answers_with_citations', 'cited', 'mentioned', 'failed', 'not_shown', 'positive', 'neutral', 'negative', 'sentiment_score_sum'])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', window.from)
    .where('day', '<=', window.to)
    .where('subject_id', 'in', [BRAND_SUBJECT, ...subjects.competitors.map((c) => c.id)]);
  if (engine !== undefined) query = query.where('engine', '=', engine);
  const rows = await query.execute();
  return rows.map((row) => ({
    day: Number(row.day),
    engine: row.engine,
    subjectId: row.subject_id,
    checked: row.answers,
    failed: row.failed,
    notShown: row.not_shown,
    answersWithCitations: row.answers_with_citations,
    cited: row.cited,
    mentioned: row.mentioned,
    positive: row.positive,
    neutral: row.neutral,
    negative: row.negative,
    sentimentScoreSum: row.sentiment_score_sum,
  }));
}

/** Sums rows by a key (a subject, an engine, a day); keys absent from the rows are absent from the map. */
export function sumBy<K>(rows: readonly DailyRow[], key: (row: DailyRow) => K): Map<K, Counts> {
  const sums = new Map<K, Counts>();
  for (const row of rows) {
    const k = key(row);
    sums.set(k, addCounts(sums.get(k) ?? ZERO, row));
  }
  return sums;
}

export function groupBy<K, T>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [item]);
    else group.push(item);
  }
  return groups;
}

/** Run-to-run agreement cells of the window per engine (agreement_daily), as a rate with its interval. */
export async function loadAgreement(db: Kysely<Database>, workspaceId: string, window: MetricWindow, engine: EngineName | undefined): Promise<Map<EngineName, { cells: number; agreeing: number }>> {
  let query = db
    .selectFrom('agreement_daily')
    .select((eb) => ['engine', eb.fn.sum<number | string>('cells').as('cells'), eb.fn.sum<number | string>('agreeing').as('agreeing')])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', window.from)
    .where('day', '<=', window.to)
    .groupBy('engine');
  if (engine !== undefined) query = query.where('engine', '=', engine);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.engine, { cells: Number(row.cells), agreeing: Number(row.agreeing) }]));
}
