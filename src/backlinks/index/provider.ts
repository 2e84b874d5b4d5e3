/** One link a backlink index knows, pointing at the target asked about. */
export interface IndexedBacklink {
  linkingUrl: string;
  /** Host of the linking page without `www.`, lower-case. */
  linkingDomain: string;
  targetUrl: string;
  /** '' when the link has no text (an image without alt text, a canonical link). */
  anchorText: string;
  dofollow: boolean;
  /** The linking domain's rank in the index's own metric (`BacklinkIndex.authorityMetric`); null when not given. */
  domainRank: number | null;
  /** When the index first saw the link (epoch ms); null when it does not say. */
  firstSeenAt: number | null;
  /** The index found the link (or its page) removed. */
  lost: boolean;
  /** When it was lost, or last seen before it was (epoch ms); null when the index does not say. */
  lostAt: number | null;
  /** The target answers 4xx or 5xx. */
  broken: boolean;
}

/** One page of a target's backlinks; `nextPage` asks for the following one, undefined after the last. */
export interface BacklinkPage {
  links: IndexedBacklink[];
  /** Backlinks the index holds for the request in all. */
  totalCount: number | null;
  nextPage: string | undefined;
}

/** The index's totals for a target. */
export interface BacklinkSummary {
  backlinks: number | null;
  referringDomains: number | null;
  referringMainDomains: number | null;
  nofollowBacklinks: number | null;
  brokenBacklinks: number | null;
}

/** A domain linking to a target, with the index's counts. */
export interface IndexedReferringDomain {
  domain: string;
  /** Backlinks from it to the target. */
  links: number | null;
  /** The rank the index gives it (for DataForSEO, the rank it passes to the target). */
  rank: number | null;
}

/**
 * A backlink data provider: who links to a domain, its totals and the domains linking to it. Targets are domains
 * without scheme or `www.`; subdomains are included and links from the target's own domain are not.
 */
export interface BacklinkIndex {
  /** Names the provider in stored rows (`backlink_measures.provider`, `referring_domains.provider`). */
  readonly provider: string;
  /** The name of the metric `domainRank` is, stored with it (never called DA when it is not Moz's). */
  readonly authorityMetric: string;
  /** Backlinks read per sync at most (BACKLINKS_MAX_ROWS). */
  readonly maxRows: number;
  /** The most backlinks one page may hold. */
  readonly maxPageSize: number;
  /**
   * A page of live and lost backlinks, the best-ranked linking domains first; `page` is the previous page's `nextPage`.
   * A page may hold more than `pageSize` links when the provider cannot change its page size mid-way.
   */
  backlinks(target: string, pageSize: number, page?: string): Promise<BacklinkPage>;
  summary(target: string): Promise<BacklinkSummary>;
  /** The referring domains of a target, the highest-ranked first, at most `limit`. */
  referringDomains(target: string, limit: number): Promise<IndexedReferringDomain[]>;
  close(): Promise<void>;
}
