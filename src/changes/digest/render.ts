import type { ChangeSeverity } from '../../../db/schema.js';
import { Raster, type Rgb } from '../../notifications/png.js';
import { html, type SafeHtml } from '../../web/html.js';
import type { ChangeRecord } from '../listChanges.js';
import type { Digest } from './digest.js';

/** Where the mail's links lead, and whose it is. */
export interface DigestMailContext {
  workspaceName: string;
  websiteUrl: string;
  dashboardUrl: string;
  /** The workspace's Changes page, where the changes the mail leaves out are. */
  changesUrl: string;
  settingsUrl: string;
  unsubscribeUrl: string;
}

export interface RenderedDigest {
  subject: string;
  html: string;
  text: string;
  /** The score trend, shown in the HTML as `cid:${TREND_CID}`. */
  chart: Buffer;
}

export const TREND_CID = 'score-trend@sightline';

const INK = '#1f2933';
const MUTED = '#52606d';
const LINE = '#d9e2ec';
const ACCENT = '#2f6fdf';
const SEVERITY_COLOURS: Record<ChangeSeverity, string> = { critical: '#b42318', warning: '#a15c07', info: '#2f6fdf' };

const percent = (share: number | null) => (share === null ? '\u2014' : `${Math.round(share * 1000) / 10} %`);
const score = (value: number | null) => (value === null ? '\u2014' : String(value));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// Drawn at twice the size it is shown, so that it stays sharp on high-density screens.
const CHART = { width: 1120, height: 320, pad: 24, shownWidth: 560 } as const;
const BAR: Rgb = [47, 111, 223];
const BAR_NOW: Rgb = [23, 64, 145];
const WHISKER: Rgb = [31, 41, 51];
const GRID: Rgb = [217, 226, 236];

/**
 * The trend as bars of the weekly score on a 0-100 scale, each with its range as a whisker, the digest's week darker;
 * a week without a score has no bar. The figures themselves are in the table beside it (an image says no numbers).
 */
export function trendChart(trend: Digest['visibility']['trend']): Buffer {
  const { width, height, pad } = CHART;
  const raster = new Raster(width, height);
  const plotHeight = height - 2 * pad;
  const y = (value: number) => pad + plotHeight * (1 - value / 100);
  for (const level of [0, 25, 50, 75, 100]) raster.fill(pad, y(level) - 1, width - 2 * pad, 2, GRID);
  const slot = (width - 2 * pad) / trend.length;
  trend.forEach((point, i) => {
    if (point.score === null) return;
    const left = pad + i * slot + slot * 0.2;
    const barWidth = slot * 0.6;
    raster.fill(left, y(point.score), barWidth, y(0) - y(point.score), i === trend.length - 1 ? BAR_NOW : BAR);
    if (point.range !== null) {
      const centre = left + barWidth / 2;
      raster.fill(centre - 2, y(point.range.high), 4, y(point.range.low) - y(point.range.high), WHISKER);
      for (const end of [point.range.low, point.range.high]) raster.fill(centre - barWidth / 4, y(end) - 2, barWidth / 2, 4, WHISKER);
    }
  });
  return raster.png();
}

const cell = 'padding:6px 8px;border-bottom:1px solid ' + LINE + ';text-align:left;vertical-align:top;';
const wrap = 'overflow-wrap:anywhere;word-break:break-word;';

function section(title: string, body: SafeHtml): SafeHtml {
  return html`<tr><td style="padding:20px 24px 4px 24px;${wrap}"><h2 style="margin:0 0 8px 0;font-size:18px;line-height:24px;color:${INK};">${title}</h2>${body}</td></tr>`;
}

function changeLine(change: ChangeRecord): SafeHtml {
  const about = change.query === null ? '' : html` <span style="color:${MUTED};">\u2014 \u201c${change.query}\u201d${change.engine === null ? '' : html` on ${change.engine}`}</span>`;
  return html`<li style="margin:0 0 6px 0;${wrap}"><span style="display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;line-height:18px;color:#ffffff;background:${SEVERITY_COLOURS[change.severity]};">${change.severity}</span> ${change.title}${about}</li>`;
}

function changeList(changes: readonly ChangeRecord[], none: string): SafeHtml {
  return changes.length === 0 ? html`<p style="margin:0;color:${MUTED};">${none}</p>` : html`<ul style="margin:0;padding:0 0 0 18px;">${changes.map(changeLine)}</ul>`;
}

function changeText(change: ChangeRecord): string {
  const about = change.query === null ? '' : ` \u2014 "${change.query}"${change.engine === null ? '' : ` on ${change.engine}`}`;
  return `- [${change.severity}] ${change.title}${about}`;
}

/** The digest as a mail: HTML (inline styles, one table column that narrows to a phone's width) and plain text. */
export function renderDigestMail(digest: Digest, context: DigestMailContext): RenderedDigest {
  const { week, visibility, changes, wins, losses, agents, next, summary } = digest;
  const subject = `${context.workspaceName}: your week in AI answers, ${week.from} to ${week.to}`;
  const mention = visibility.mentionRate;
  const interval = mention.interval === null ? '' : ` (95 % interval ${percent(mention.interval.low)} to ${percent(mention.interval.high)})`;
  const range = visibility.range === null ? '' : ` (range ${visibility.range.low} to ${visibility.range.high})`;
  const reportWins = wins.reports;
  const link = (href: string, text: string) => html`<a href="${href}" style="color:${ACCENT};">${text}</a>`;

  const body = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${subject}</title></head>
<body style="margin:0;padding:0;background:#f5f7fa;color:${INK};font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:22px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f5f7fa;"><tr><td align="center" style="padding:16px 8px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;width:100%;background:#ffffff;border:1px solid ${LINE};border-radius:6px;">
<tr><td style="padding:20px 24px 0 24px;${wrap}">
<p style="margin:0;color:${MUTED};font-size:13px;">Sightline weekly digest \u00b7 ${context.workspaceName}</p>
<h1 style="margin:4px 0 12px 0;font-size:22px;line-height:28px;color:${INK};">Your week in AI answers: ${week.from} to ${week.to}</h1>
<p style="margin:0;">${summary.text}</p>
${summary.by === 'writer' ? html`<p style="margin:6px 0 0 0;color:${MUTED};font-size:12px;">Phrased by a writer model from the figures below.</p>` : ''}
</td></tr>
${section(
  'Visibility',
  html`<p style="margin:0 0 8px 0;">Score <strong>${score(visibility.score)}</strong>${range}${visibility.previousScore === null ? '' : html`, ${visibility.previousScore} the week before`}. Mention rate <strong>${percent(mention.rate)}</strong> of ${mention.of} answers${interval}.</p>
<img src="cid:${TREND_CID}" width="${CHART.shownWidth}" alt="The weekly visibility score over the last ${visibility.trend.length} weeks, with its range; the figures are in the table below." style="display:block;width:100%;max-width:${CHART.shownWidth}px;height:auto;border:0;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin-top:8px;font-size:13px;line-height:18px;border-collapse:collapse;">
<tr><th style="${cell}">Week of</th><th style="${cell}">Score</th><th style="${cell}">Mention rate</th></tr>
${visibility.trend.map((point) => html`<tr><td style="${cell}">${point.week}</td><td style="${cell}">${score(point.score)}</td><td style="${cell}">${percent(point.mentionRate.rate)}</td></tr>`)}
</table>`,
)}
${section(
  `What changed (${changes.total})`,
  html`${changeList(changes.shown, 'Nothing worth a change this week.')}${changes.more === 0 ? '' : html`<p style="margin:6px 0 0 0;color:${MUTED};">And ${plural(changes.more, 'more change')} on the ${link(context.changesUrl, 'Changes page')}.</p>`}`,
)}
${section(
  'Wins',
  html`${changeList(wins.changes, 'No citation gained and no rank won this week.')}${
    reportWins === null || reportWins.newlyCited.length === 0
      ? ''
      : html`<p style="margin:8px 0 4px 0;">Newly cited by an answer engine:</p><ul style="margin:0;padding:0 0 0 18px;">${reportWins.newlyCited.map((win) => html`<li style="${wrap}">\u201c${win.query}\u201d on ${win.engine}</li>`)}</ul>`
  }${
    reportWins === null || reportWins.newReferrers.length === 0
      ? ''
      : html`<p style="margin:8px 0 4px 0;">New sites sending visitors:</p><ul style="margin:0;padding:0 0 0 18px;">${reportWins.newReferrers.map((win) => html`<li style="${wrap}">${win.host} (${plural(win.sessions, 'session')})</li>`)}</ul>`
  }`,
)}
${section('Losses', changeList(losses.changes, 'No citation lost and no rank dropped this week.'))}
${section(
  'What the agents did',
  html`<p style="margin:0 0 8px 0;">${plural(agents.runs, 'job')} this week${agents.failed === 0 ? '' : html`, ${agents.failed} failed`}.</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="font-size:13px;line-height:18px;border-collapse:collapse;">
<tr><th style="${cell}">Lane</th><th style="${cell}">Runs</th><th style="${cell}">Failed</th></tr>
${agents.lanes.map((lane) => html`<tr><td style="${cell}">${lane.lane}</td><td style="${cell}">${lane.runs}</td><td style="${cell}">${lane.failed}</td></tr>`)}
</table>`,
)}
${section(
  'What to do next',
  next.length === 0
    ? html`<p style="margin:0;color:${MUTED};">No scored content idea yet: the ideas are scored once the weekly checks have run.</p>`
    : html`<ol style="margin:0;padding:0 0 0 20px;">${next.map(
        (idea) => html`<li style="margin:0 0 6px 0;${wrap}">Write about \u201c${idea.queryText}\u201d${idea.suggestedTitle === null ? '' : html` \u2014 ${idea.suggestedTitle}`} <span style="color:${MUTED};">(score ${score(idea.score)}${idea.citationGapRate === null ? '' : html`, engines cite others for ${percent(idea.citationGapRate)} of its answers`})</span></li>`,
      )}</ol>`,
)}
<tr><td style="padding:20px 24px 24px 24px;${wrap}">
<p style="margin:0 0 12px 0;"><a href="${context.dashboardUrl}" style="display:inline-block;padding:10px 16px;border-radius:4px;background:${ACCENT};color:#ffffff;text-decoration:none;">Open the dashboard</a></p>
<p style="margin:0;color:${MUTED};font-size:12px;line-height:18px;">You get this digest as a member of ${context.workspaceName} (${context.websiteUrl}). ${link(context.settingsUrl, 'Change the day, hour or time zone')} or ${link(context.unsubscribeUrl, 'unsubscribe from the weekly digest')}.</p>
</td></tr>
</table>
</td></tr></table>
</body></html>`;

  const lines = [
    `Sightline weekly digest \u00b7 ${context.workspaceName}`,
    `Your week in AI answers: ${week.from} to ${week.to}`,
    '',
    summary.text,
    '',
    'VISIBILITY',
    `Score ${score(visibility.score)}${range}${visibility.previousScore === null ? '' : `, ${visibility.previousScore} the week before`}. Mention rate ${percent(mention.rate)} of ${mention.of} answers${interval}.`,
    ...visibility.trend.map((point) => `  ${point.week}: score ${score(point.score)}, mention rate ${percent(point.mentionRate.rate)}`),
    '',
    `WHAT CHANGED (${changes.total})`,
    ...(changes.shown.length === 0 ? ['Nothing worth a change this week.'] : changes.shown.map(changeText)),
    ...(changes.more === 0 ? [] : [`And ${plural(changes.more, 'more change')} on the Changes page: ${context.changesUrl}`]),
    '',
    'WINS',
    ...(wins.changes.length === 0 ? ['No citation gained and no rank won this week.'] : wins.changes.map(changeText)),
    ...(reportWins === null ? [] : reportWins.newlyCited.map((win) => `- Newly cited: "${win.query}" on ${win.engine}`)),
    ...(reportWins === null ? [] : reportWins.newReferrers.map((win) => `- New site sending visitors: ${win.host} (${plural(win.sessions, 'session')})`)),
    '',
    'LOSSES',
    ...(losses.changes.length === 0 ? ['No citation lost and no rank dropped this week.'] : losses.changes.map(changeText)),
    '',
    'WHAT THE AGENTS DID',
    `${plural(agents.runs, 'job')} this week${agents.failed === 0 ? '' : `, ${agents.failed} failed`}.`,
    ...agents.lanes.map((lane) => `  ${lane.lane}: ${lane.runs} runs, ${lane.failed} failed`),
    '',
    'WHAT TO DO NEXT',
    ...(next.length === 0 ? ['No scored content idea yet.'] : next.map((idea, i) => `${i + 1}. Write about "${idea.queryText}" (score ${score(idea.score)})`)),
    '',
    `Open the dashboard: ${context.dashboardUrl}`,
    `Change the day, hour or time zone: ${context.settingsUrl}`,
    `Unsubscribe from the weekly digest: ${context.unsubscribeUrl}`,
    '',
  ];
  return { subject, html: body.value, text: lines.join('\n'), chart: trendChart(visibility.trend) };
}
