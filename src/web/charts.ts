import { scaleBand, scaleLinear, scalePoint } from 'd3-scale';
import { area, line } from 'd3-shape';
import { formatNumber } from './format.js';
import { html, type SafeHtml } from './html.js';

export interface SeriesPoint {
  /** The label on the x axis and in the table (a week, a day). */
  label: string;
  value: number | null;
  /** The interval around the value, drawn as a band when given. */
  low?: number | null;
  high?: number | null;
}

export interface LineChartSpec {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  points: readonly SeriesPoint[];
  /** Fixed y range (a score 0–100); otherwise from zero to the largest value. */
  yDomain?: [number, number];
  digits?: number;
}

const WIDTH = 640;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 44, left: 52 };

function numbersTable(spec: { id: string; xLabel: string; yLabel: string; digits?: number }, rows: readonly SeriesPoint[]): SafeHtml {
  const withInterval = rows.some((row) => row.low !== undefined || row.high !== undefined);
  return html`<details class="chart-numbers"><summary>The numbers</summary><table id="${spec.id}-table">
<thead><tr><th scope="col">${spec.xLabel}</th><th scope="col">${spec.yLabel}</th>${withInterval ? html`<th scope="col">Interval</th>` : ''}</tr></thead>
<tbody>${rows.map(
    (row) =>
      html`<tr><td>${row.label}</td><td class="num">${formatNumber(row.value, spec.digits)}</td>${
        withInterval ? html`<td class="num">${row.low === null || row.low === undefined ? '—' : `${formatNumber(row.low, spec.digits)} – ${formatNumber(row.high ?? null, spec.digits)}`}</td>` : ''
      }</tr>`,
  )}</tbody></table></details>`;
}

function frame(id: string, title: string, svg: SafeHtml, table: SafeHtml): SafeHtml {
  return html`<figure class="chart" id="${id}"><figcaption id="${id}-title">${title}</figcaption>${svg}${table}</figure>`;
}

/** A line over time with its interval drawn as a band, labelled axes, and the numbers as a table beneath. */
export function lineChart(spec: LineChartSpec): SafeHtml {
  const known = spec.points.filter((point): point is SeriesPoint & { value: number } => point.value !== null);
  if (spec.points.length === 0) return frame(spec.id, spec.title, html`<p class="muted">No data yet.</p>`, html``);
  const top = Math.max(1, ...known.map((point) => Math.max(point.value, point.high ?? 0)));
  const x = scalePoint<string>()
    .domain(spec.points.map((point) => point.label))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.5);
  const y = scaleLinear()
    .domain(spec.yDomain ?? [0, top])
    .nice()
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const band = area<SeriesPoint>()
    .defined((point) => point.low !== undefined && point.low !== null && point.high !== undefined && point.high !== null)
    .x((point) => x(point.label) ?? 0)
    .y0((point) => y(point.low ?? 0))
    .y1((point) => y(point.high ?? 0));
  const path = line<SeriesPoint>()
    .defined((point) => point.value !== null)
    .x((point) => x(point.label) ?? 0)
    .y((point) => y(point.value ?? 0));
  // At most about eight x labels, so they never overlap at phone width.
  const step = Math.max(1, Math.ceil(spec.points.length / 8));
  const xTicks = spec.points.filter((_, index) => index % step === 0);
  const yTicks = y.ticks(5);
  // Ticks closer than one apart keep the decimals that tell them apart (0, 0.5, 1 rather than 0, 1, 1).
  const tickDigits = yTicks.length < 2 ? 0 : Math.max(0, Math.ceil(-Math.log10(yTicks[1]! - yTicks[0]!)));
  const svg = html`<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${spec.id}-title" preserveAspectRatio="xMidYMid meet">
<g class="grid">${yTicks.map((tick) => html`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(tick)}" y2="${y(tick)}"></line>`)}</g>
<path class="band" d="${band(spec.points) ?? ''}"></path>
<path class="line" d="${path(spec.points) ?? ''}"></path>
${spec.points.map((point) =>
  point.low === undefined || point.low === null || point.high === undefined || point.high === null
    ? ''
    : html`<line class="interval" x1="${x(point.label) ?? 0}" x2="${x(point.label) ?? 0}" y1="${y(point.low)}" y2="${y(point.high)}"></line>`,
)}
${known.map((point) => html`<circle class="dot" cx="${x(point.label) ?? 0}" cy="${y(point.value)}" r="3"><title>${point.label}: ${formatNumber(point.value, spec.digits)}</title></circle>`)}
<g class="axis">${yTicks.map((tick) => html`<text x="${MARGIN.left - 6}" y="${y(tick)}" text-anchor="end" dominant-baseline="middle">${formatNumber(tick, tickDigits)}</text>`)}
${xTicks.map((point) => html`<text x="${x(point.label) ?? 0}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${point.label}</text>`)}
<text class="axis-label" x="${(MARGIN.left + WIDTH - MARGIN.right) / 2}" y="${HEIGHT - 6}" text-anchor="middle">${spec.xLabel}</text>
<text class="axis-label" transform="translate(14 ${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}) rotate(-90)" text-anchor="middle">${spec.yLabel}</text></g>
</svg>`;
  return frame(spec.id, spec.title, svg, numbersTable(spec, spec.points));
}

export interface BarChartSpec {
  id: string;
  title: string;
  /** What the bars are (competitors, sources): the table's first column. */
  categoryLabel: string;
  valueLabel: string;
  bars: readonly SeriesPoint[];
  /** Fixed value range (a share 0–100); otherwise from zero to the largest value. */
  domain?: [number, number];
  digits?: number;
}

/** Horizontal bars with the value written at each bar's end, the interval as a whisker, and the numbers beneath. */
export function barChart(spec: BarChartSpec): SafeHtml {
  if (spec.bars.length === 0) return frame(spec.id, spec.title, html`<p class="muted">No data yet.</p>`, html``);
  const rowHeight = 28;
  const labelWidth = 160;
  const height = spec.bars.length * rowHeight + 40;
  const top = Math.max(1, ...spec.bars.map((bar) => Math.max(bar.value ?? 0, bar.high ?? 0)));
  const x = scaleLinear()
    .domain(spec.domain ?? [0, top])
    .nice()
    .range([labelWidth, WIDTH - 56]);
  const y = scaleBand<string>()
    .domain(spec.bars.map((_, index) => `${index}`))
    .range([8, height - 32])
    .padding(0.25);
  const svg = html`<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${spec.id}-title" preserveAspectRatio="xMidYMid meet">
${spec.bars.map((bar, index) => {
  const top = y(`${index}`) ?? 0;
  const middle = top + y.bandwidth() / 2;
  const value = bar.value ?? 0;
  return html`<g class="bar-row"><text x="${labelWidth - 8}" y="${middle}" text-anchor="end" dominant-baseline="middle">${bar.label.length > 22 ? `${bar.label.slice(0, 21)}…` : bar.label}</text>
<rect class="bar" x="${labelWidth}" y="${top}" width="${Math.max(0, x(value) - labelWidth)}" height="${y.bandwidth()}"><title>${bar.label}: ${formatNumber(bar.value, spec.digits)}</title></rect>
${bar.low === undefined || bar.low === null || bar.high === undefined || bar.high === null ? '' : html`<line class="whisker" x1="${x(bar.low)}" x2="${x(bar.high)}" y1="${middle}" y2="${middle}"></line>`}
<text x="${x(Math.max(value, bar.high ?? 0)) + 6}" y="${middle}" dominant-baseline="middle">${formatNumber(bar.value, spec.digits)}</text></g>`;
})}
<text class="axis-label" x="${(labelWidth + WIDTH - 56) / 2}" y="${height - 8}" text-anchor="middle">${spec.valueLabel}</text>
</svg>`;
  return frame(spec.id, spec.title, svg, numbersTable({ id: spec.id, xLabel: spec.categoryLabel, yLabel: spec.valueLabel, digits: spec.digits }, spec.bars));
}
