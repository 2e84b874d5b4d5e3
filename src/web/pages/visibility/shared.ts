import type { Request } from 'express';
import type { z } from 'zod';
import { ENGINE_LABELS, ENGINE_NAMES, type EngineName } from '../../../visibility/engines/engine.js';
import { METRIC_DAYS, type MetricDays } from '../../../visibility/metrics/window.js';
import type { rate, shareOfVoiceReport, visibilityTrendReport } from '../../../../tools/visibility/outputs.js';
import { formatDay, formatPercent } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { queryValue } from '../../kit.js';
import { barChart, lineChart, type SeriesPoint } from '../../charts.js';

export type Rate = z.infer<typeof rate>;

/** A share as a percentage with its 95 % interval and the counts behind it; a dash when nothing was measured. */
export function rateText(value: Rate): SafeHtml {
  if (value.rate === null) return html`<span class="muted">— (0 measured)</span>`;
  const interval = value.interval === null ? '' : ` (${formatPercent(value.interval.low, { fraction: true })} – ${formatPercent(value.interval.high, { fraction: true })})`;
  return html`${formatPercent(value.rate, { fraction: true })}${interval} <span class="muted">${value.count} of ${value.of}</span>`;
}

/** A share as a bar of a chart in percent, its interval as the whisker. */
export function rateBar(label: string, value: Rate): SeriesPoint {
  return { label, value: value.rate === null ? null : value.rate * 100, low: value.interval === null ? null : value.interval.low * 100, high: value.interval === null ? null : value.interval.high * 100 };
}

export function engineLabel(engine: string): string {
  return (ENGINE_LABELS as Record<string, string>)[engine] ?? engine;
}

export interface MetricFilters {
  days: MetricDays;
  model?: EngineName;
}

/** The window and engine a metric page was asked for; a value the operations do not know falls back to their default. */
export function metricFilters(req: Request): MetricFilters {
  const days = queryValue(req, 'days');
  const model = queryValue(req, 'model');
  return {
    days: METRIC_DAYS.find((choice) => choice === days) ?? '30',
    ...(ENGINE_NAMES.includes(model as EngineName) ? { model: model as EngineName } : {}),
  };
}

export function engineSelect(name: string, selected: string | undefined, label = 'Answer engine'): SafeHtml {
  return html`<label>${label} <select name="${name}"><option value="">All engines</option>${ENGINE_NAMES.map(
    (engine) => html`<option value="${engine}"${engine === selected ? ' selected' : ''}>${ENGINE_LABELS[engine]}</option>`,
  )}</select></label>`;
}

/** The GET form that reloads a metric page for another window or engine. */
export function metricFilterForm(filters: MetricFilters): SafeHtml {
  return html`<form method="get" class="filters"><label>Window <select name="days">${METRIC_DAYS.map(
    (days) => html`<option value="${days}"${days === filters.days ? ' selected' : ''}>Last ${days} days</option>`,
  )}</select></label>${engineSelect('model', filters.model)}<button type="submit" class="secondary">Show</button></form>`;
}

/** What a report covers, under its heading: the window and the engine. */
export function windowNote(window: { from: string; to: string }, model: string | null): SafeHtml {
  return html`<p class="muted">${formatDay(window.from)} to ${formatDay(window.to)} (UTC days), ${model === null ? 'all engines' : engineLabel(model)}.</p>`;
}

export type TrendReport = z.infer<typeof visibilityTrendReport>;
export type ShareOfVoiceReport = z.infer<typeof shareOfVoiceReport>;

/** The score per day checks ran (weekly runs make it a weekly line), its range drawn as the band. */
export function scoreTrendChart(trend: TrendReport): SafeHtml {
  return lineChart({
    id: 'score-trend',
    title: `Visibility score per check day, last ${trend.window.days} days`,
    xLabel: 'Check day (UTC)',
    yLabel: 'Score (0–100)',
    yDomain: [0, 100],
    points: trend.points.map((point) => ({ label: point.date, value: point.score, low: point.scoreRange?.low ?? null, high: point.scoreRange?.high ?? null })),
  });
}

export function shareOfVoiceChart(report: ShareOfVoiceReport): SafeHtml {
  return barChart({
    id: 'share-of-voice',
    title: `Share of voice, last ${report.window.days} days`,
    categoryLabel: 'Brand',
    valueLabel: 'Share of all namings (%)',
    domain: [0, 100],
    bars: report.subjects.map((subject) => rateBar(subject.isBrand ? `${subject.name} (you)` : subject.name, subject.share)),
  });
}
