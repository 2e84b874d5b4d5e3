/** The events Sightline delivers: a first publish, a publish after an edit (same `article.id`), and a test from the user. */
export type EventName = 'article.published' | 'article.updated' | 'test';

export const EVENT_NAMES: readonly EventName[] = ['article.published', 'article.updated', 'test'];

export interface ArticleImage {
  url: string;
  altText?: string;
  placement?: string;
}

export interface ArticleFaq {
  question: string;
  answer: string;
}

export interface ArticleAuthor {
  name: string;
  bio?: string;
  linkedinUrl?: string;
}

/** The article object of a delivery, field for field as the specification lists it. */
export interface Article {
  /** Stable per article: an `article.updated` carries the same id, so the receiver updates the existing post. */
  id: string;
  title: string;
  /** A suggestion; the receiver may change it (Sightline keeps the URL the receiver answers). */
  slug: string;
  /** The full rendered body. */
  html: string;
  /** The same content as Markdown. */
  markdown?: string;
  metaTitle?: string;
  metaDescription?: string;
  keywords?: string[];
  /** Absolute URL on Sightline's image CDN host. */
  featuredImageUrl?: string;
  images?: ArticleImage[];
  faq?: ArticleFaq[];
  /** JSON-LD for a `<script type="application/ld+json">` in the page head. */
  schemaJsonLd?: string;
  canonicalUrl?: string;
  /** BCP-47 code; absent means English. */
  language?: string;
  author?: ArticleAuthor;
  /** To be mapped to a category or tag. */
  categoryName?: string;
  /** Epoch milliseconds. */
  publishedAt: number;
  /** The destination's publish-as setting: store a draft without publishing it when the site supports drafts. */
  status: 'publish' | 'draft';
}

/** A delivery's JSON body. */
export interface DeliveryEvent {
  event: EventName;
  /** Epoch milliseconds. */
  timestamp: number;
  article: Article;
}

/**
 * A change Sightline noticed (a citation lost, a crawler blocked, ...), as its list_changes operation shows it. Its
 * kind is also the event's name; new kinds may come, so a receiver acts on the ones it knows.
 */
export interface SightlineChange {
  id: string;
  kind: string;
  severity: 'critical' | 'warning' | 'info';
  /** One line: what changed, with the figure. */
  title: string;
  /** ISO 8601, UTC. */
  detectedAt: string;
  engine: string | null;
  queryId: string | null;
  query: string | null;
  runId: string | null;
  details: Record<string, unknown>;
}

/** A change event's JSON body: `event` is the change's kind (`citation.lost`), one event per change. */
export interface ChangeEvent {
  event: string;
  /** Epoch milliseconds. */
  timestamp: number;
  change: SightlineChange;
}

/** A verified change event and its id (`webhook-id`, the same on every attempt). */
export interface ChangeDelivery extends ChangeEvent {
  id: string;
}

/** A verified delivery: its body and its id (`webhook-id`, the same on every attempt of one delivery). */
export interface Delivery extends DeliveryEvent {
  id: string;
}

/** The answer Sightline reads the article's address from. */
export interface DeliveryAnswer {
  ok: true;
  url?: string;
}

/**
 * Builds the answer to a delivery: `{ ok: true, url }`. The URL must be absolute and on the same site as the endpoint
 * (a subdomain counts); without one the delivery succeeds but the article has no address on the account.
 */
export function answer({ url }: { url?: string | URL | undefined } = {}): DeliveryAnswer {
  return url === undefined ? { ok: true } : { ok: true, url: String(url) };
}
