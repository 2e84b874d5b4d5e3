import type { ChangeSeverity } from '../../db/schema.js';

export const CHANGE_SEVERITIES = ['critical', 'warning', 'info'] as const satisfies readonly ChangeSeverity[];

/** Higher is more urgent: a channel's minimum severity keeps the changes at or above it. */
export const SEVERITY_RANK: Record<ChangeSeverity, number> = { info: 0, warning: 1, critical: 2 };

/** How a kind's threshold is read, and its default; a kind without one is only on or off. */
export interface ThresholdRule {
  meaning: string;
  default: number;
  min: number;
  max: number;
}

export interface ChangeKindDefinition {
  severity: ChangeSeverity;
  /** When Sightline records a change of this kind: the definition the README and list_changes publish. */
  definition: string;
  threshold?: ThresholdRule;
  /** The rule may name engines (AI answer engines) and tracked queries the kind is watched for. */
  perEngine: boolean;
  perQuery: boolean;
}

const INTERVALS =
  "the 95 % Wilson intervals of the two runs do not overlap (a move inside the engines' noise is never a change)";

/**
 * Every kind of change, with its severity and definition. The kind is also the name of the webhook event that carries
 * it (beside the specification's `article.published`, `article.updated` and `test`, which keep their meaning).
 * "A run" is one check run, weekly or on demand; a change found by a run compares it with the run before that covered
 * the same queries and engines.
 */
export const CHANGE_KINDS = {
  'visibility.rose': {
    severity: 'info',
    definition: `The brand's mention rate, citation rate or composite visibility score, overall or on one engine, is higher in this run than in the run before, over the queries and engines both runs answered, and ${INTERVALS}. For the score the ranges take the intervals' place (every component at the ends of its interval).`,
    threshold: { meaning: 'the smallest move worth a change, in percentage points of the rate (points of the 0-100 score)', default: 0, min: 0, max: 100 },
    perEngine: true,
    perQuery: false,
  },
  'visibility.fell': {
    severity: 'warning',
    definition: `The brand's mention rate, citation rate or composite visibility score, overall or on one engine, is lower in this run than in the run before, over the queries and engines both runs answered, and ${INTERVALS}. For the score the ranges take the intervals' place (every component at the ends of its interval).`,
    threshold: { meaning: 'the smallest move worth a change, in percentage points of the rate (points of the 0-100 score)', default: 0, min: 0, max: 100 },
    perEngine: true,
    perQuery: false,
  },
  'citation.gained': {
    severity: 'info',
    definition:
      "A tracked query where an AI engine (Google's AI overview included) did not cite any of the brand's pages in two consecutive runs, then cited one in the two runs after.",
    perEngine: true,
    perQuery: true,
  },
  'citation.lost': {
    severity: 'warning',
    definition:
      "A tracked query where an AI engine (Google's AI overview included) cited one of the brand's pages in two consecutive runs, then cited none in the two runs after.",
    perEngine: true,
    perQuery: true,
  },
  'competitor.overtook': {
    severity: 'warning',
    definition:
      "A tracked competitor's share of voice is above the brand's in this run, with their 95 % Wilson intervals apart (not overlapping), where in the run before it was not.",
    perEngine: false,
    perQuery: false,
  },
  'source.new': {
    severity: 'info',
    definition:
      "A domain is among the most cited sources of this run's answers for the brand's queries (cited by at least 3 answers) and was not among the top 20 of the run before.",
    threshold: { meaning: 'how many top cited sources count', default: 10, min: 1, max: 50 },
    perEngine: false,
    perQuery: false,
  },
  'rank.entered_top': {
    severity: 'info',
    definition: "The brand's Google position for a tracked query entered the top 10 or the top 3 (the details say which) between two rank checks that answered.",
    perEngine: false,
    perQuery: true,
  },
  'rank.left_top': {
    severity: 'warning',
    definition: "The brand's Google position for a tracked query left the top 10 or the top 3 (the details say which) between two rank checks that answered.",
    perEngine: false,
    perQuery: true,
  },
  'crawler.blocked': {
    severity: 'critical',
    definition: 'An AI crawler that could reach the site no longer can: robots.txt now disallows it, or the site answers its user agent with an error.',
    perEngine: false,
    perQuery: false,
  },
  'crawler.allowed': {
    severity: 'info',
    definition: 'An AI crawler that could not reach the site now can (robots.txt and the probe both let it in).',
    perEngine: false,
    perQuery: false,
  },
  'crawler.visits_fell': {
    severity: 'warning',
    definition: 'AI-crawler visits in the last 7 days are less than half of the 7 days before, and the fall is larger than chance would make (a Poisson test at 95 %).',
    threshold: { meaning: 'the fewest visits in the earlier week worth comparing', default: 50, min: 10, max: 1_000_000 },
    perEngine: false,
    perQuery: false,
  },
  'delivery.failed': {
    severity: 'critical',
    definition: "An article's delivery to a destination failed after all its attempts.",
    perEngine: false,
    perQuery: false,
  },
  'article.not_rendered': {
    severity: 'warning',
    definition: "A published article's page did not show the article when Sightline checked it after delivery.",
    perEngine: false,
    perQuery: false,
  },
  'connection.broken': {
    severity: 'critical',
    definition: "A connected provider (Search Console, an analytics source, a CDN, a site builder, a scheduling tool, a mailbox) refused Sightline's credentials: an expired token or a revoked key.",
    perEngine: false,
    perQuery: false,
  },
  'plan.limit_near': {
    severity: 'warning',
    definition: 'The workspace used this share of a monthly plan limit (articles) or of a plan cap (tracked queries, competitors).',
    threshold: { meaning: 'the share of the limit, in percent', default: 90, min: 50, max: 100 },
    perEngine: false,
    perQuery: false,
  },
  'outreach.replied': {
    severity: 'info',
    definition: 'A prospect answered an outreach message.',
    perEngine: false,
    perQuery: false,
  },
  'backlink.lost': {
    severity: 'warning',
    definition:
      'A link placed through outreach or the link network is no longer on its page: a verification found the page without the link or gone (404, 410), or could not read the page three times in a row.',
    perEngine: false,
    perQuery: false,
  },
  'social.thread_found': {
    severity: 'info',
    definition: 'A new social thread relevant to the brand at or above this relevance score (0-100).',
    threshold: { meaning: 'the lowest relevance score (0-100) worth a change', default: 70, min: 0, max: 100 },
    perEngine: false,
    perQuery: false,
  },
} as const satisfies Record<string, ChangeKindDefinition>;

export type ChangeKind = keyof typeof CHANGE_KINDS;
export const CHANGE_KIND_NAMES = Object.keys(CHANGE_KINDS) as [ChangeKind, ...ChangeKind[]];

export function kindDefinition(kind: ChangeKind): ChangeKindDefinition {
  return CHANGE_KINDS[kind];
}
