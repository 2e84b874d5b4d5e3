// The traffic overview (get_traffic_overview): human visits from the service's counter or the site's analytics, and AI crawlers.

function change(now, before) {
  if (before === 0) return now === 0 ? 'same as before' : 'none before';
  const ratio = now / before - 1;
  return h('span', { class: ratio > 0 ? 'up' : ratio < 0 ? 'down' : 'soft' }, `${ratio > 0 ? '+' : ''}${pct(ratio)} vs previous`);
}

function sourceRows(rows, field) {
  const total = rows.reduce((sum, row) => sum + row[field], 0);
  return barChart(
    rows.map((row) => ({ label: row.engine ? `${row.source} (${row.engine})` : row.source, value: total === 0 ? 0 : row[field] / total, note: `${num(row[field])} (${pct(total === 0 ? 0 : row[field] / total)})` })),
  );
}

function ours(traffic) {
  const before = traffic.previousPeriod;
  return [
    h(
      'div',
      { class: 'stats' },
      stat('Page views', num(traffic.pageViews), change(traffic.pageViews, before.pageViews), 'page-views'),
      stat('Visitors', num(traffic.uniqueVisitors), change(traffic.uniqueVisitors, before.uniqueVisitors), 'visitors'),
      stat('Sessions', num(traffic.sessions), change(traffic.sessions, before.sessions), 'sessions'),
      stat('Bounce rate', pct(traffic.bounceRate), undefined, 'bounce-rate'),
      stat('Time on page', traffic.averageTimeOnPageSeconds === null ? '–' : `${num(traffic.averageTimeOnPageSeconds)} s`, undefined, 'time-on-page'),
    ),
    h('h2', {}, 'Page views per day'),
    lineChart(traffic.daily.map((point) => ({ date: point.date, value: point.pageViews, note: `${num(point.pageViews)} views, ${num(point.visitors)} visitors` }))),
    h('h2', {}, 'Sessions by source'),
    sourceRows(traffic.sessionsBySource, 'sessions'),
    h('h2', {}, 'Top pages'),
    table(['Page', 'Views'], traffic.topPages.map((page) => [page.path, num(page.pageViews)]), [1]),
  ];
}

function site(traffic) {
  return [
    h('p', { class: 'soft' }, `From ${traffic.provider}; sources, days and pages count ${traffic.breakdownCounts}.`),
    h(
      'div',
      { class: 'stats' },
      stat('Visits', num(traffic.visits), change(traffic.visits, traffic.previousVisits), 'visits'),
      stat('Visitors', num(traffic.visitors), undefined, 'visitors'),
      stat('Page views', num(traffic.pageviews), undefined, 'page-views'),
      stat('From search', num(traffic.visitsFromSearch), undefined, 'from-search'),
      stat('From AI', num(traffic.visitsFromAi), traffic.visitsFromAiByEngine.map((row) => `${row.engine} ${num(row.visits)}`).join(', ') || undefined, 'from-ai'),
    ),
    h('h2', {}, `${traffic.breakdownCounts === 'visits' ? 'Visits' : 'Visitors'} per day`),
    lineChart(traffic.daily.map((point) => ({ date: point.date, value: point.visits }))),
    h('h2', {}, 'By source'),
    sourceRows(traffic.bySource, 'visits'),
    h('h2', {}, 'Top pages'),
    table(['Page', traffic.breakdownCounts === 'visits' ? 'Visits' : 'Visitors'], traffic.topPages.map((page) => [page.path, num(page.visits)]), [1]),
  ];
}

startView('traffic', (data) => {
  const crawlers = data.aiCrawlers;
  const human = data.scope === 'ours' ? data.ours : data.site;
  return [
    h('h1', {}, 'Traffic overview'),
    h('p', { class: 'soft', id: 'window' }, windowText(data.window)),
    human === null ? h('p', { id: 'empty' }, data.scope === 'site' ? 'No analytics provider is connected.' : 'No counter data.') : data.scope === 'ours' ? ours(human) : site(human),
    h('h2', {}, 'AI crawlers'),
    h('div', { class: 'stats' }, stat('Crawler visits', num(crawlers.total), `source: ${crawlers.source.replaceAll('_', ' ')}`, 'crawler-visits')),
    crawlers.byCrawler.length === 0 ? null : barChart(crawlers.byCrawler.map((row) => ({ label: row.operator ? `${row.crawler} (${row.operator})` : row.crawler, value: row.visits, note: num(row.visits) })), { max: Math.max(1, ...crawlers.byCrawler.map((row) => row.visits)), format: num }),
    crawlers.byPage.length === 0 ? null : table(['Crawled page', 'Visits'], crawlers.byPage.map((row) => [row.path, num(row.visits)]), [1]),
    h('p', { class: 'soft' }, crawlers.definition),
  ];
});
