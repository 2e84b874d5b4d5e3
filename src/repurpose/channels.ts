import type { RepurposeChannel } from '../../db/schema.js';

export const REPURPOSE_CHANNELS: readonly RepurposeChannel[] = ['x', 'linkedin', 'bluesky', 'threads', 'mastodon', 'facebook', 'newsletter'];

/** What a draft for a channel may be: how many parts (a thread) and how long each part. */
export interface ChannelForm {
  /** 1: a single post; more: a thread of up to this many parts. */
  maxParts: number;
  /** The longest part, counted as the channel counts (`countsGraphemes`: user-perceived characters, else UTF-16 units). */
  maxChars: number;
  countsGraphemes: boolean;
  /** What the writer is asked for. */
  form: string;
  /** utm_source of the link (a name the traffic classification knows) and utm_medium. */
  utmSource: string;
  utmMedium: 'social' | 'email';
}

/**
 * The channels' published limits: X 280 characters a post, LinkedIn 3,000 for a post, Bluesky 300 graphemes, Threads
 * 500, Mastodon 500 (the default instance limit), Facebook far more than a feed post needs (kept at 5,000), and a
 * newsletter blurb kept short by choice.
 */
export const CHANNEL_FORMS: Record<RepurposeChannel, ChannelForm> = {
  x: { maxParts: 10, maxChars: 280, countsGraphemes: false, form: 'an X thread: a hook post, then posts that each carry one point; the link in the last post', utmSource: 'x', utmMedium: 'social' },
  linkedin: { maxParts: 1, maxChars: 3000, countsGraphemes: false, form: 'a LinkedIn post: a first line that earns the click on "see more", short paragraphs, the link at the end', utmSource: 'linkedin', utmMedium: 'social' },
  bluesky: { maxParts: 10, maxChars: 300, countsGraphemes: true, form: 'a Bluesky post, or a short thread when the point needs it; the link in the last post', utmSource: 'bluesky', utmMedium: 'social' },
  threads: { maxParts: 10, maxChars: 500, countsGraphemes: false, form: 'a Threads post, conversational; a short thread only when needed', utmSource: 'threads', utmMedium: 'social' },
  mastodon: { maxParts: 10, maxChars: 500, countsGraphemes: false, form: 'a Mastodon post with a content warning only when the topic needs one, plain and without marketing tone', utmSource: 'mastodon', utmMedium: 'social' },
  facebook: { maxParts: 1, maxChars: 5000, countsGraphemes: false, form: 'a Facebook page post: two or three short paragraphs and the link', utmSource: 'facebook', utmMedium: 'social' },
  newsletter: { maxParts: 1, maxChars: 1000, countsGraphemes: false, form: 'a newsletter blurb: two to four sentences that make a reader want the article, then the link', utmSource: 'newsletter', utmMedium: 'email' },
};

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** A part's length as the channel counts it. */
export function partLength(channel: RepurposeChannel, text: string): number {
  if (!CHANNEL_FORMS[channel].countsGraphemes) return text.length;
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}

/** Why the parts do not fit the channel (naming the part and the rule), or undefined when they do. */
export function formProblem(channel: RepurposeChannel, parts: readonly string[]): string | undefined {
  const form = CHANNEL_FORMS[channel];
  if (parts.length === 0) return 'must have at least one part';
  if (parts.length > form.maxParts) return form.maxParts === 1 ? `must be one post for ${channel}, got ${parts.length} parts` : `must have at most ${form.maxParts} parts for ${channel}, got ${parts.length}`;
  for (const [index, part] of parts.entries()) {
    if (part.trim().length === 0) return `part ${index + 1} is empty`;
    const length = partLength(channel, part);
    if (length > form.maxChars) return `part ${index + 1} is ${length} characters; ${channel} allows at most ${form.maxChars}`;
  }
  return undefined;
}

/** The article's URL tagged so that the counter and connected analytics attribute the visit to the channel. */
export function taggedLink(articleUrl: string, channel: RepurposeChannel, campaign: string): string {
  const url = new URL(articleUrl);
  url.searchParams.set('utm_source', CHANNEL_FORMS[channel].utmSource);
  url.searchParams.set('utm_medium', CHANNEL_FORMS[channel].utmMedium);
  url.searchParams.set('utm_campaign', campaign);
  return url.href;
}
