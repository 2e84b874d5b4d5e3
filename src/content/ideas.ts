import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { toIso } from '../shared/time.js';
import { querySignals, SIGNAL_WINDOW_DAYS, type QuerySignals } from '../visibility/metrics/querySignals.js';
import { publishedPages } from '../visibility/rankings/pages.js';
import { coverageOf, findQuery, type QueryRow } from './queries.js';

/**
 * What makes an idea winnable, per query, from the visibility and rank checks and Search Console:
 * citationGapRate: share of the query's AI answers of the last 30 days that cite sources but not the brand (0 to 1);
 * competitorCitationRate: share of those answers that cite or mention a tracked competitor (0 to 1);
 * trendingScore: how much interest in the query is rising (0 to 1; 0.5 steady): its Search Console impressions and
 * clicks, summed across pages, over the last 28 full days against the 28 before (see trendingScore in trending.ts);
 * googlePosition: the brand's position in the latest Google check (1 to 30), a quick win when just off the top.
 * null: no check has measured it (googlePosition also when the brand is not in the top 30: no quick win to weigh;
 * trendingScore when Search Console shows the query in neither period, or has no previous period to compare with).
 */
export interface WinnabilityMetrics {
  citationGapRate: number | null;
  competitorCitationRate: number | null;
  trendingScore: number | null;
  googlePosition: number | null;
}

export type Signal = 'citationGap' | 'competitorCitations' | 'trending' | 'quickWin';

/** Weights of the idea score; a score uses only the signals measured and spreads the weight over them. */
export const SIGNAL_WEIGHTS: Record<Signal, number> = { citationGap: 0.35, competitorCitations: 0.25, quickWin: 0.25, trending: 0.15 };

/** Positions 1 to 3 are already won; 4 to 30 are worth more the closer they are to the top. */
function quickWinValue(position: number): number {
  return position <= 3 ? 0 : Math.max(0, (31 - position) / 27);
}

function signalValues(metrics: WinnabilityMetrics): Record<Signal, number | null> {
  return {
    citationGap: metrics.citationGapRate,
    competitorCitations: metrics.competitorCitationRate,
    trending: metrics.trendingScore,
    quickWin: metrics.googlePosition === null ? null : quickWinValue(metrics.googlePosition),
  };
}

export interface IdeaScore {
  /** 0 to 100, or null when nothing has been measured: a number is never made up. */
  score: number | null;
  basedOn: Signal[];
  scoreNote: string;
}

export function scoreIdea(metrics: WinnabilityMetrics): IdeaScore {
  const measured = Object.entries(signalValues(metrics)).filter((entry): entry is [Signal, number] => entry[1] !== null);
  if (measured.length === 0) return { score: null, basedOn: [], scoreNote: 'not scored: no visibility or rank checks have measured this query yet, nor has Search Console' };
  const weight = measured.reduce((sum, [signal]) => sum + SIGNAL_WEIGHTS[signal], 0);
  const value = measured.reduce((sum, [signal, v]) => sum + SIGNAL_WEIGHTS[signal] * v, 0);
  const basedOn = measured.map(([signal]) => signal);
  return { score: Math.round((100 * value) / weight), basedOn, scoreNote: `weighted over ${basedOn.join(', ')}` };
}

const UNMEASURED: QuerySignals = { citationGapRate: null, competitorCitationRate: null, trendingScore: null, googlePosition: null, rankingPage: null, readPage: null };

/** Ideas of these queries, scored from what the checks measured about each. */
export async function ideaRecords(db: Kysely<Database>, workspaceId: string, queries: readonly QueryRow[], now: number) {
  const [signals, pages] = await Promise.all([querySignals(db, workspaceId, queries, now), publishedPages(db, workspaceId)]);
  return queries.map((query) => {
    const measured = signals.get(query.id) ?? UNMEASURED;
    const metrics: WinnabilityMetrics = {
      citationGapRate: measured.citationGapRate,
      competitorCitationRate: measured.competitorCitationRate,
      trendingScore: measured.trendingScore,
      googlePosition: measured.googlePosition,
    };
    return {
      id: query.id,
      queryText: query.text,
      suggestedTitle: query.suggested_title,
      source: query.source,
      createdAt: toIso(query.created_at),
      ...scoreIdea(metrics),
      metrics,
      // The workspace's page Google ranks for the query, and the one Search Console sees readers of the query land on.
      rankingPage: measured.rankingPage,
      readPage: measured.readPage,
      articleId: pages.articleAt(measured.rankingPage) ?? pages.articleAt(measured.readPage),
    };
  });
}

export type Idea = Awaited<ReturnType<typeof ideaRecords>>[number];

export async function ideaRecord(db: Kysely<Database>, workspaceId: string, query: QueryRow, now: number): Promise<Idea> {
  const [idea] = await ideaRecords(db, workspaceId, [query], now);
  return idea!;
}

/** Uncovered, unhidden tracked queries, best score first (unscored last), then oldest first. */
export async function listContentIdeas(db: Kysely<Database>, workspaceId: string, now: number) {
  const [queries, coverage] = await Promise.all([
    db.selectFrom('queries').selectAll().where('workspace_id', '=', workspaceId).where('hidden_at', 'is', null).orderBy('created_at').orderBy('id').execute(),
    coverageOf(db, workspaceId),
  ]);
  const ideas = await ideaRecords(
    db,
    workspaceId,
    queries.filter((query) => coverage(query.id, query.text) === null),
    now,
  );
  ideas.sort((a, b) => (b.score ?? -1) - (a.score ?? -1));
  return { ideas, weights: SIGNAL_WEIGHTS, windowDays: SIGNAL_WINDOW_DAYS };
}

/** Hides a query from the ideas; it stays tracked (weekly checks, list_queries, its place in the plan's limit). */
export async function hideContentIdea(db: Kysely<Database>, clock: Clock, workspaceId: string, queryId: string) {
  const query = await findQuery(db, workspaceId, queryId);
  const hiddenAt = query.hidden_at ?? clock.now();
  if (query.hidden_at === null) await db.updateTable('queries').set({ hidden_at: hiddenAt }).where('id', '=', query.id).execute();
  return { queryId: query.id, queryText: query.text, hidden: true as const, hiddenAt: toIso(hiddenAt), stillTracked: true as const };
}
