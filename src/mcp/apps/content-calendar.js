// The content calendar (list_content): every article by publish slot, grouped by month.

const STATUS_LABELS = { planned: 'Planned', draft: 'Draft', published: 'Published', archived: 'Archived' };

function month(iso) {
  return new Date(iso).toLocaleDateString(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function articleState(article) {
  if (article.writing) return 'Writing';
  if (article.lastWriteError) return `${STATUS_LABELS[article.status]}: write failed`;
  return STATUS_LABELS[article.status];
}

startView('content-calendar', (data) => {
  const articles = [...data.articles].sort((a, b) => a.scheduledAt.localeCompare(b.scheduledAt));
  const byMonth = new Map();
  for (const article of articles) {
    const key = month(article.scheduledAt);
    byMonth.set(key, [...(byMonth.get(key) ?? []), article]);
  }
  const count = (status) => articles.filter((article) => article.status === status).length;
  return [
    h('h1', {}, 'Content calendar'),
    h('div', { class: 'stats' }, Object.entries(STATUS_LABELS).map(([status, label]) => stat(label, num(count(status)), undefined, `count-${status}`))),
    articles.length === 0 ? h('p', { id: 'empty' }, 'Nothing planned yet.') : null,
    [...byMonth].map(([label, rows]) => [
      h('h2', {}, label),
      table(
        ['Day', 'Title', 'Status', 'Health', 'Google clicks'],
        rows.map((article) => [
          day(article.publishedAt ?? article.scheduledAt),
          h('span', {}, article.title, h('br'), h('span', { class: 'soft' }, article.keyword)),
          h('span', { class: 'tag' }, articleState(article)),
          article.healthScore === null ? '–' : num(article.healthScore),
          article.google === null ? '–' : `${num(article.google.clicks)} (pos. ${num(article.google.position, 1)})`,
        ]),
        [3, 4],
      ),
    ]),
  ];
});
