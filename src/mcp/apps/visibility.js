// The visibility score (get_visibility_score) or its trend (get_visibility_trend): which one the result's shape says.

const scoreRange = (range) => (range ? `range ${num(range.low, 1)}–${num(range.high, 1)}` : undefined);
const CHANGE = { up: '↑ up', down: '↓ down', steady: '→ steady' };
const COMPONENT_LABELS = { mentionRate: 'Mention rate', citationRate: 'Citation rate', shareOfVoice: 'Share of voice' };

function renderScore(data) {
  const c = data.components;
  const previous = data.previous;
  const change = previous.mentionRateChange;
  return [
    h('h1', {}, 'AI visibility score'),
    h('p', { class: 'soft', id: 'window' }, windowText(data.window, data.model)),
    h(
      'div',
      { class: 'stats' },
      stat('Score (0-100)', num(data.score, 1), data.score === null ? data.reason : scoreRange(data.range), 'score'),
      stat('Mention rate', pct(c.mentionRate.rate, 1), rateText(c.mentionRate), 'mention-rate'),
      stat('Citation rate', pct(c.citationRate.rate, 1), rateText(c.citationRate), 'citation-rate'),
      stat('Share of voice', pct(c.shareOfVoice.rate, 1), rateText(c.shareOfVoice), 'share-of-voice'),
      stat('Sentiment', pct(c.sentiment.value, 1), c.sentiment.interval ? `95% ${pct(c.sentiment.interval.low)}–${pct(c.sentiment.interval.high)}, ${num(c.sentiment.of)} answers` : `${num(c.sentiment.of)} answers`, 'sentiment'),
    ),
    h('h2', {}, 'Components'),
    barChart(
      ['mentionRate', 'citationRate', 'shareOfVoice'].map((name) => ({ label: COMPONENT_LABELS[name], value: c[name].rate, low: c[name].interval?.low, high: c[name].interval?.high, note: rateText(c[name]) })).concat({
        label: 'Sentiment',
        value: c.sentiment.value,
        low: c.sentiment.interval?.low,
        high: c.sentiment.interval?.high,
      }),
    ),
    data.missing.length > 0 ? h('p', { class: 'soft', id: 'missing' }, `Not in the score: ${data.missing.map((m) => `${m.component} (${m.reason})`).join('; ')}`) : null,
    h(
      'p',
      { id: 'previous' },
      `Previous ${previous.window.days} days: mention rate ${rateText(previous.mentionRate)}`,
      change ? h('span', { class: change === 'up' ? 'up' : change === 'down' ? 'down' : 'soft' }, ` ${CHANGE[change]}`) : null,
    ),
    h('h2', {}, 'By answer engine'),
    table(
      ['Engine', 'Score', 'Mention rate', 'Answers'],
      data.byEngine.map((engine) => [
        `${engine.engine}${engine.configured ? '' : ' (not configured)'}`,
        engine.score === null ? '–' : `${num(engine.score, 1)}${engine.range ? ` (${num(engine.range.low, 1)}–${num(engine.range.high, 1)})` : ''}`,
        rateCell(engine.components.mentionRate),
        num(engine.sampleSize.answersChecked),
      ]),
      [1, 3],
    ),
    h(
      'p',
      { class: 'soft', id: 'sample' },
      `${num(data.sampleSize.answersChecked)} answers checked, ${num(data.sampleSize.failedChecks)} failed, ${num(data.sampleSize.noAnswerShown)} with no AI answer shown; ${num(data.competitorsTracked)} competitors tracked. Run-to-run agreement ${rateText(data.agreement)}.`,
    ),
  ];
}

function renderTrend(data) {
  const points = data.points;
  return [
    h('h1', {}, 'AI visibility trend'),
    h('p', { class: 'soft', id: 'window' }, windowText(data.window, data.model)),
    h('h2', {}, 'Score per day (0-100)'),
    lineChart(
      points.map((p) => ({ date: p.date, value: p.score, low: p.scoreRange?.low, high: p.scoreRange?.high, note: p.score === null ? undefined : `${num(p.score, 1)} (${scoreRange(p.scoreRange) ?? 'no range'})` })),
      { max: 100 },
    ),
    h('h2', {}, 'Mention rate per day'),
    lineChart(
      points.map((p) => ({ date: p.date, value: p.mentionRate.rate, low: p.mentionRate.interval?.low, high: p.mentionRate.interval?.high, note: rateText(p.mentionRate) })),
      { max: 1, format: pct },
    ),
    h(
      'details',
      { id: 'points' },
      h('summary', {}, `The ${points.length} days in numbers`),
      table(
        ['Day', 'Score', 'Mention rate', 'Citation rate', 'Answers'],
        points.map((p) => [day(p.date), p.score === null ? '–' : `${num(p.score, 1)}${p.scoreRange ? ` (${num(p.scoreRange.low, 1)}–${num(p.scoreRange.high, 1)})` : ''}`, `${rateText(p.mentionRate)}${p.mentionRateChange && p.mentionRateChange !== 'steady' ? ` ${CHANGE[p.mentionRateChange]}` : ''}`, rateText(p.citationRate), num(p.sampleSize.answersChecked)]),
        [1, 4],
      ),
    ),
    h('p', { class: 'soft' }, data.definition),
  ];
}

startView('visibility', (data) => (Array.isArray(data.points) ? renderTrend(data) : renderScore(data)));
