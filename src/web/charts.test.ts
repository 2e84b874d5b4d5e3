import { describe, expect, it } from 'vitest';
import { barChart, lineChart } from './charts.js';

describe('server-rendered charts', () => {
  const weeks = [
    { label: '2026-W45', value: 40, low: 35, high: 45 },
    { label: '2026-W46', value: null },
    { label: '2026-W47', value: 52.5, low: 47, high: 58 },
  ];

  it('draws a line with its interval as a band, labelled axes, a title, and the numbers as a table', () => {
    const svg = lineChart({ id: 'trend', title: 'Visibility score by week', xLabel: 'Week', yLabel: 'Score', points: weeks, yDomain: [0, 100] }).value;
    expect(svg).toContain('<figcaption id="trend-title">Visibility score by week</figcaption>');
    expect(svg).toContain('aria-labelledby="trend-title"');
    expect(svg).toMatch(/<path class="band" d="M[^"]+"/);
    expect(svg).toMatch(/<path class="line" d="M[^"]+"/);
    // Each interval is also a whisker, so a single week's interval is drawn too.
    expect(svg.match(/<line class="interval"/g)).toHaveLength(2);
    expect(svg).toContain('>Week</text>');
    expect(svg).toContain('>Score</text>');
    // A week without data is a gap in the line and a dash in the table, never a zero.
    expect(svg.match(/<circle /g)).toHaveLength(2);
    expect(svg).toContain('<tr><td>2026-W46</td><td class="num">—</td><td class="num">—</td></tr>');
    expect(svg).toContain('<td class="num">47 – 58</td>');
  });

  it('keeps the decimals that tell small ticks apart', () => {
    const svg = lineChart({ id: 'small', title: 'Leads by day', xLabel: 'Day', yLabel: 'Leads', points: [{ label: 'Mon', value: 1 }, { label: 'Tue', value: 2 }] }).value;
    const ticks = [...svg.matchAll(/text-anchor="end" dominant-baseline="middle">([^<]+)</g)].map((match) => match[1]);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks).toContain('0.5');
  });

  it('draws bars with whiskers for intervals, and says when there is nothing to draw', () => {
    const bars = barChart({ id: 'sov', title: 'Share of voice', categoryLabel: 'Brand', valueLabel: 'Share of answers (%)', bars: [{ label: 'Acme', value: 30, low: 25, high: 35 }, { label: 'Rival <b>', value: 12 }], domain: [0, 100] }).value;
    expect(bars).toContain('class="whisker"');
    expect(bars.match(/<rect class="bar"/g)).toHaveLength(2);
    expect(bars).toContain('Rival &lt;b&gt;');
    expect(lineChart({ id: 'empty', title: 'Nothing', xLabel: 'Week', yLabel: 'Score', points: [] }).value).toContain('No data yet.');
  });
});
