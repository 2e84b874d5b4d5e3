import type { Author } from '../../brand/records.js';
import type { FaqEntry } from '../../content/render.js';
import { ProviderError, type ProviderErrorFacts, type ProviderErrorKind } from '../../integrations/kit/providerError.js';

/**
 * The interface every CMS a destination can write to implements (Ghost, and the kinds after it), and the article it
 * writes. The publishing area owns it; each vendor folder under src/integrations/ implements it, and its declaration's
 * `create` (CmsConstructor, ./constructor.ts) opens it for one destination.
 */

export interface CmsImage {
  url: string;
  altText: string;
}

/**
 * An article as a CMS receives it: the same rendering the webhook article object is made of (publish.ts builds both
 * from it), with every part a CMS has a place for.
 */
export interface CmsArticle {
  /** Sightline's id: vendors mark the post with it, so a retry finds the post an earlier attempt made. */
  id: string;
  title: string;
  slug: string;
  /** Sanitised HTML with internal links (the body). */
  html: string;
  markdown: string;
  /** A short summary; the meta description when there is one. */
  excerpt: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  /** Become the post's tags, after the category. */
  keywords: string[];
  categoryName: string | null;
  faq: FaqEntry[];
  /** JSON text for a `<script type="application/ld+json">` in the page head. */
  schemaJsonLd: string;
  canonicalUrl: string | null;
  language: string;
  author: Author | null;
  /** The image the owner chose for the article (update_article_meta), for the CMS's media library. */
  featuredImage: CmsImage | null;
  /** Other images to upload; none yet (images inside the body stay where its HTML links them). */
  images: CmsImage[];
  /** Milliseconds since the epoch: the article's first publish. */
  publishedAt: number;
  /** `draft` keeps the post unpublished on the CMS (no public address, no render check). */
  status: 'publish' | 'draft';
}

/** Where an article landed on the CMS. */
export interface PlacedPost {
  /** The CMS's id of the post. */
  remoteId: string;
  /** Its public address; null for a draft, which has none. */
  url: string | null;
}

export interface CmsDestination {
  /**
   * Proves the destination works without changing anything visible: the site answers, the credentials are accepted
   * with the permissions publishing needs, and the CMS (or its plugin) is recent enough. Answers a line saying what
   * was found; throws a DestinationError naming the failure and the input field it concerns.
   */
  check(): Promise<{ summary: string }>;
  /**
   * Creates the post, or updates in place the one an earlier delivery made (`earlier`). Without `earlier` the vendor
   * first looks for a post carrying the article's marker, so a retry after a timeout the CMS in fact completed never
   * makes a second post. Throws a DestinationError; its kind decides whether the outbox tries again.
   */
  place(article: CmsArticle, earlier: PlacedPost | null): Promise<PlacedPost>;
}

/**
 * A CMS's failure. Its kind decides what the outbox does: `rate_limited` and `unavailable` are tried again (after the
 * wait the CMS asked for), the others are final. `field` names the create_destination input it concerns (`siteUrl`,
 * `ghost.adminApiKey`), so a failed check at creation is a 400 naming it.
 */
export class DestinationError extends ProviderError {
  constructor(
    provider: string,
    kind: ProviderErrorKind,
    message: string,
    readonly field: string | null,
    facts: ProviderErrorFacts = {},
  ) {
    super(provider, kind, message, facts);
  }

  /** A kit failure in the destination's words: same kind and facts, with the field it concerns. */
  static from(error: ProviderError, field: string | null, message = error.message): DestinationError {
    return new DestinationError(error.provider ?? 'CMS', error.kind, message, field, {
      status: error.status,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      ...(error.detail === undefined ? {} : { detail: error.detail }),
      timedOut: error.timedOut,
      cause: error,
    });
  }
}
