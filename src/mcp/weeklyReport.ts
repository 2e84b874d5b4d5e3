import type { z } from 'zod';
import { reportSummary, reportWins } from '../../tools/analytics/outputs.js';
import type { Principal } from '../auth/principal.js';
import { mcpOperation, type McpDeps } from './caller.js';
import { markdownText } from './markdownText.js';

type Summary = z.output<typeof reportSummary>;
type Wins = z.output<typeof reportWins>;
type Interval = { low: number; high: number } | null;

/** The operations the weekly report is made of: a caller sees the report only when it may call both. */
export const WEEKLY_REPORT_OPERATIONS = ['get_reports_summary', 'get_reports_wins'] as const;

// The last 7 UTC days, today included, against the 7 before: the window the Reports screen calls a week.
const WEEK = { days: '7' } as const;

const signed = (value: number) => (value > 0 ? `+${value}` : String(value));
const percent = (share: number) => `${Math.round(share * 1000) / 10} %`;
const range = (interval: Interval, format: (n: number) => string) => (interval === null ? '' : ` (${format(interval.low)}–${format(interval.high)})`);

function row(figure: string, now: string, before: string, change: string): string {
  return `| ${figure} | ${now} | ${before} | ${change} |`;
}

function figures(summary: Summary): string[] {
  const { visibility, shareOfVoice: voice, articlesPublished: articles, aiTraffic, crawls, leads, backlinksGained: links } = summary;
  const score = (value: number | null, interval: Interval) => (value === null ? 'no checks' : `${value}${range(interval, String)}`);
  const share = (value: number | null, interval: Interval) => (value === null ? 'no answers' : `${percent(value)}${range(interval, percent)}`);
  return [
    '| Figure | This week | The week before | Change |',
    '| --- | --- | --- | --- |',
    row('Visibility score', score(visibility.score, visibility.range), score(visibility.previousScore, visibility.previousRange), visibility.change ?? '–'),
    row('Share of voice', share(voice.share, voice.interval), share(voice.previousShare, voice.previousInterval), voice.change ?? '–'),
    row('Articles published', String(articles.count), String(articles.previous), signed(articles.count - articles.previous)),
    row('Visits from AI answers', String(aiTraffic.visits), String(aiTraffic.previous), signed(aiTraffic.visits - aiTraffic.previous)),
    row('AI-crawler visits', String(crawls.count), String(crawls.previous), signed(crawls.count - crawls.previous)),
    row('Leads (from AI answers)', `${leads.total} (${leads.fromAi})`, `${leads.previousTotal} (${leads.previousFromAi})`, signed(leads.total - leads.previousTotal)),
    links.count === null || links.previous === null
      ? row('Backlinks gained', '–', '–', '–')
      : row('Backlinks gained', String(links.count), String(links.previous), signed(links.count - links.previous)),
  ];
}

function list(title: string, items: string[]): string[] {
  return ['', `### ${title}`, ...(items.length === 0 ? ['None this week.'] : items.map((item) => `- ${item}`))];
}

function wins(report: Wins): string[] {
  const day = (iso: string) => iso.slice(0, 10);
  return [
    '',
    '## Wins',
    ...list(
      'Queries an answer engine newly cited the brand for',
      report.newlyCited.map((win) => `${markdownText(win.query)}: ${markdownText(win.engine)}, first cited ${day(win.firstCitedAt)}`),
    ),
    ...list(
      'Pages whose visits from AI answers grew most',
      report.aiTrafficGrowth.map((win) => `${markdownText(win.path)}: ${win.aiVisits} visits (${win.previousAiVisits} the week before, ${signed(win.growth)})`),
    ),
    ...list(
      'New referring hosts',
      report.newReferrers.map((win) => `${markdownText(win.host)}: ${win.sessions} session${win.sessions === 1 ? '' : 's'}, first seen ${day(win.firstSeenAt)}`),
    ),
  ];
}

/** The report in Markdown, every figure as get_reports_summary and get_reports_wins answer it for 7 days. */
export function weeklyReportText(summary: Summary, report: Wins): string {
  const { window, previousWindow, backlinksGained } = summary;
  return [
    `# Weekly report: ${window.from} to ${window.to}`,
    `Compared with ${previousWindow.from} to ${previousWindow.to}. Figures from get_reports_summary and get_reports_wins (days: 7); ranges are the intervals the change is judged by.`,
    '',
    summary.narrative,
    '',
    ...figures(summary),
    ...(backlinksGained.reason === null ? [] : ['', `Backlinks: ${backlinksGained.reason}.`]),
    ...wins(report),
    '',
    '## Definitions',
    `- Visibility score: ${summary.visibility.definition}`,
    `- Share of voice: ${summary.shareOfVoice.definition}`,
    `- Visits from AI answers: ${summary.aiTraffic.definition}`,
    `- AI-crawler visits: ${summary.crawls.definition}`,
    `- Wins: ${report.definition}`,
    '',
  ].join('\n');
}

const NOT_ACTIVATED =
  '# Weekly report\n\nThe Reports screen is not activated in this workspace yet, so there is no report. ' +
  'A person with the manage:org scope turns it on with activate_analytics_screen (screen: reports).\n';

/**
 * Reads the week through the pipeline, as the two operations would answer the caller (scope, rate caps, the Reports
 * screen's activation), and renders it. A refusal is thrown as the pipeline's ServiceError.
 */
export async function weeklyReportMarkdown(deps: McpDeps, principal: Principal): Promise<string> {
  const read = (operationId: (typeof WEEKLY_REPORT_OPERATIONS)[number]) => deps.pipeline.call(mcpOperation(deps.registry, operationId), principal, WEEK);
  const [summary, report] = await Promise.all([read('get_reports_summary'), read('get_reports_wins')]);
  if (!summary.ok) throw summary.error;
  if (!report.ok) throw report.error;
  if (summary.data === null || report.data === null) return NOT_ACTIVATED;
  // Checked against the operations' own output schemas: the pipeline hands back what the handler answered, untyped.
  return weeklyReportText(reportSummary.parse(summary.data), reportWins.parse(report.data));
}
