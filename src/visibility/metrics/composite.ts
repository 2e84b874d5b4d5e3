import type { Counts } from './daily.js';
import { rate, round4, wilsonInterval, type Interval, type Rate } from './wilson.js';

export type Component = 'mentionRate' | 'shareOfVoice' | 'citationRate' | 'sentiment';

/** The composite visibility score, versioned: a change of formula or weights gets a new version. */
export const COMPOSITE = {
  version: '1',
  weights: { mentionRate: 0.4, shareOfVoice: 0.3, citationRate: 0.2, sentiment: 0.1 } satisfies Record<Component, number>,
  formula:
    'score = 100 x (0.40 x mentionRate + 0.30 x shareOfVoice + 0.20 x citationRate + 0.10 x sentiment), where sentiment = mean sentiment score / 100. ' +
    'A component that cannot be measured in the window is left out and the other weights are scaled up to sum to 1 (it is listed in `missing`); ' +
    'without a single answer checked there is no score.',
} as const;

export const DEFINITIONS = {
  mentionRate: 'answers that cite or mention the brand / answers checked (failed checks, and search pages that showed no AI answer, are not answers: they are counted apart)',
  citationRate: "answers citing one of the brand's domains (subdomains included) / answers with at least one citation",
  shareOfVoice:
    'answers naming the brand (cited or mentioned) / answers naming the brand plus answers naming each tracked competitor, over the same checks; each brand counts once per answer',
  sentiment: 'the mean sentiment score (0-100, the writer model reading the passage around the mention) / 100, over the answers that name the brand and have a sentiment',
  agreement:
    'run-to-run agreement: cells (one query on one engine in one check run, asked CHECK_RUNS_PER_QUERY > 1 times, with at least two answers read) whose answers all give the brand the same result (cited, mentioned or none) / cells',
} as const;

export interface Components {
  mentionRate: Rate;
  citationRate: Rate;
  shareOfVoice: Rate;
  /** Mean sentiment score / 100, over `of` answers with a sentiment. */
  sentiment: { value: number | null; interval: Interval | null; of: number };
}

export const mentions = (counts: Counts) => counts.cited + counts.mentioned;
export const labelled = (counts: Counts) => counts.positive + counts.neutral + counts.negative;

export function componentsOf(brand: Counts, competitorMentions: number): Components {
  const withSentiment = labelled(brand);
  const meanShare = withSentiment > 0 ? brand.sentimentScoreSum / withSentiment / 100 : null;
  return {
    mentionRate: rate(mentions(brand), brand.checked),
    citationRate: rate(brand.cited, brand.answersWithCitations),
    shareOfVoice: rate(mentions(brand), mentions(brand) + competitorMentions),
    // A mean of values in [0, 1] has a variance of at most p(1-p): the Wilson interval at that mean is a conservative 95 % interval.
    sentiment: {
      value: meanShare === null ? null : round4(meanShare),
      interval: meanShare === null ? null : wilsonInterval(meanShare * withSentiment, withSentiment),
      of: withSentiment,
    },
  };
}

function missingReason(component: Component, components: Components, competitorsTracked: number): string | null {
  switch (component) {
    case 'mentionRate':
      return components.mentionRate.of === 0 ? 'no answers checked' : null;
    case 'citationRate':
      return components.citationRate.of === 0 ? 'no answer cited any source' : null;
    case 'shareOfVoice':
      if (competitorsTracked === 0) return 'no competitors tracked';
      return components.shareOfVoice.of === 0 ? 'no answer named the brand or a competitor' : null;
    case 'sentiment':
      return components.sentiment.of === 0 ? 'no answer naming the brand has a sentiment' : null;
  }
}

export interface CompositeScore {
  /** 0-100 with one decimal, or null with `reason`. */
  score: number | null;
  /** The score with every component at the low and at the high end of its interval: a range, not itself a confidence interval. */
  range: Interval | null;
  basedOn: Component[];
  missing: Array<{ component: Component; reason: string }>;
  reason: string | null;
}

interface Value {
  value: number;
  interval: Interval;
}

function valueOf(components: Components, component: Component): Value | null {
  const { value, interval } = component === 'sentiment' ? components.sentiment : { value: components[component].rate, interval: components[component].interval };
  return value === null || interval === null ? null : { value, interval };
}

const WEIGHTED = Object.keys(COMPOSITE.weights) as Component[];

export function compositeScore(components: Components, competitorsTracked: number): CompositeScore {
  const measured: Array<[Component, Value]> = [];
  const missing: CompositeScore['missing'] = [];
  for (const component of WEIGHTED) {
    const reason = missingReason(component, components, competitorsTracked);
    const value = valueOf(components, component);
    if (reason === null && value !== null) measured.push([component, value]);
    else missing.push({ component, reason: reason ?? 'not measured' });
  }
  if (components.mentionRate.of === 0) return { score: null, range: null, basedOn: [], missing, reason: 'no answers checked in the window: nothing to score' };
  const weight = measured.reduce((sum, [component]) => sum + COMPOSITE.weights[component], 0);
  const at = (pick: (value: Value) => number) => Math.round((1000 * measured.reduce((sum, [component, value]) => sum + COMPOSITE.weights[component] * pick(value), 0)) / weight) / 10;
  return {
    score: at((v) => v.value),
    range: { low: at((v) => v.interval.low), high: at((v) => v.interval.high) },
    basedOn: measured.map(([component]) => component),
    missing,
    reason: null,
  };
}
