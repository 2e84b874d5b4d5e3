// Share of voice (get_share_of_voice): the brand against its tracked competitors in AI answers.

startView('share-of-voice', (data) => {
  const subjects = data.subjects;
  const sample = data.sampleSize;
  return [
    h('h1', {}, 'Share of voice in AI answers'),
    h('p', { class: 'soft', id: 'window' }, windowText(data.window, data.model)),
    subjects.length === 0
      ? h('p', { id: 'empty' }, 'No brand or competitor was named in this window.')
      : barChart(subjects.map((subject) => ({ label: subject.isBrand ? `${subject.name} (you)` : subject.name, value: subject.share.rate, low: subject.share.interval?.low, high: subject.share.interval?.high, note: rateText(subject.share), brand: subject.isBrand }))),
    table(
      ['Name', 'Answers naming', 'Cited', 'Mentioned', 'Share'],
      subjects.map((subject) => [subject.isBrand ? `${subject.name} (you)` : subject.name, num(subject.answersNaming), num(subject.cited), num(subject.mentioned), rateText(subject.share)]),
      [1, 2, 3, 4],
    ),
    h(
      'p',
      { class: 'soft', id: 'sample' },
      `${num(sample.answersChecked)} answers checked, ${num(sample.failedChecks)} failed, ${num(sample.noAnswerShown)} with no AI answer shown; ${num(sample.totalMentions)} namings in all; ${num(sample.competitorsTracked)} competitors tracked.`,
    ),
    h('p', { class: 'soft' }, data.definition),
  ];
});
