// Google versus AI (get_google_vs_ai): per tracked query, whether Google ranks the brand and how each AI engine treated it.

const STATES = { both: 'Both', google: 'Google only', ai: 'AI only', neither: 'Neither', pending: 'Pending' };

startView('google-vs-ai', (data) => {
  const summary = data.summary;
  const total = Object.keys(STATES).reduce((sum, state) => sum + summary[state], 0);
  const engines = data.engines.configured;
  const first = (data.page - 1) * data.limit;
  return [
    h('h1', {}, 'Google versus AI answers'),
    h('p', { class: 'soft' }, `${num(total)} tracked queries. Google: ${data.googleConfigured ? 'checked' : 'not configured'}. AI engines: ${engines.length > 0 ? engines.join(', ') : 'none configured'}.`),
    h('div', { class: 'stats' }, Object.entries(STATES).map(([state, label]) => stat(label, num(summary[state]), total > 0 ? pct(summary[state] / total) : undefined, `summary-${state}`))),
    barChart(Object.entries(STATES).map(([state, label]) => ({ label, value: summary[state], note: num(summary[state]) })), { max: Math.max(1, total), format: num }),
    h('h2', {}, data.total === 0 ? 'Queries' : `Queries ${num(Math.min(first + 1, data.total))}–${num(first + data.rows.length)} of ${num(data.total)}`),
    table(
      ['Query', 'State', 'Google', ...engines],
      data.rows.map((row) => [
        row.queryText,
        h('span', { class: 'tag' }, STATES[row.state]),
        row.google.status === 'checked' ? (row.google.position === null ? 'not in top 30' : `#${row.google.position}`) : row.google.status.replaceAll('_', ' '),
        ...engines.map((engine) => row.engines[engine].result.replaceAll('_', ' ')),
      ]),
    ),
    data.nextPage === null ? null : h('p', { class: 'soft' }, `More on page ${num(data.nextPage)}.`),
    h('p', { class: 'soft' }, data.definition),
  ];
});
