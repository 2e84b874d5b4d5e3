// Backlink stats (get_backlink_stats): the stored rows, the index's totals once measured, outreach and links built.

startView('backlinks', (data) => {
  const outreach = data.outreach;
  const built = data.built;
  const most = (record) => Math.max(1, ...Object.values(record));
  return [
    h('h1', {}, 'Backlinks'),
    h(
      'div',
      { class: 'stats' },
      stat('Backlinks', num(data.total), `${num(data.verified)} verified, ${num(data.discovered)} discovered, ${num(data.lost)} lost`, 'total'),
      stat('Linking domains', num(data.uniqueDomains), 'not lost', 'unique-domains'),
      stat('Average authority', num(data.avgDA, 1), data.avgDAMetric ? `${data.avgDAMetric.replaceAll('_', ' ')}, ${num(data.avgDARows)} rows` : 'no metric yet', 'avg-da'),
      data.indexedBacklinks === undefined ? null : stat('Indexed backlinks', num(data.indexedBacklinks), data.indexedMeasuredAt ? `measured ${day(data.indexedMeasuredAt)}` : undefined, 'indexed'),
      data.referringDomains === undefined ? null : stat('Referring domains', num(data.referringDomains), [data.referringDomainsSource, data.referringMeasuredAt ? `measured ${day(data.referringMeasuredAt)}` : null].filter(Boolean).join(', ') || undefined, 'referring'),
    ),
    h('h2', {}, 'Rows by status'),
    barChart(
      [
        { label: 'Verified', value: data.verified },
        { label: 'Discovered', value: data.discovered },
        { label: 'Lost', value: data.lost },
      ].map((row) => ({ ...row, note: num(row.value) })),
      { max: Math.max(1, data.total), format: num },
    ),
    h('h2', {}, 'Outreach prospects'),
    barChart(
      [
        ['Identified', outreach.identified],
        ['Contacted', outreach.contacted],
        ['Replied', outreach.replied],
        ['Link placed', outreach.linkPlaced],
        ['Rejected', outreach.rejected],
      ].map(([label, value]) => ({ label, value, note: num(value) })),
      { max: most(outreach), format: num },
    ),
    h('h2', {}, 'Links built (not lost)'),
    barChart(
      [
        ['Outreach', built.outreach],
        ['Social and community', built.social],
        ['Network', built.network],
        ['Managed', built.managed],
      ].map(([label, value]) => ({ label, value, note: num(value) })),
      { max: most(built), format: num },
    ),
  ];
});
