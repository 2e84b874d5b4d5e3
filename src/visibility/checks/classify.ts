import type { Citation } from '../engines/engine.js';

/** Someone an answer is classified for: the brand (id `brand`) or one tracked competitor. */
export interface Subject {
  id: string;
  name: string;
  /** Hosts without `www.`: a citation of one of them, or of a subdomain, makes the answer cite the subject. */
  domains: string[];
  /** What counts as naming the subject in the text: its name, aliases, product names and bare domain. */
  names: string[];
  /** Phrases inside which a name does not count ("notion of" for a brand called Notion). */
  exclusions: string[];
}

export type Classification = 'cited' | 'mentioned' | 'none';

export interface SubjectResult {
  subjectId: string;
  result: Classification;
  /** Order of the subject's first mention among the subjects named in the text (1 = first); null when not named. */
  position: number | null;
  /** The sentence or sentences around the first mention, at most PASSAGE_MAX characters; null when not named. */
  passage: string | null;
}

export const PASSAGE_MAX = 500;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A whole-word, case-insensitive pattern for a phrase: no letter, digit or underscore may touch either end, nor may a
 * dot that goes on into a host name follow it (so "Acme's", "(Acme)" and "Acme." match "Acme", while "pineapple" does
 * not match "Apple" and "acme.io" does not match "Acme"), and any run of spaces inside the phrase matches any run of
 * white space.
 */
function phrasePattern(phrase: string): RegExp | undefined {
  const words = phrase.trim().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}_])${words.map(escapeRegExp).join('\\s+')}(?![\\p{L}\\p{N}_]|\\.[\\p{L}\\p{N}])`, 'giu');
}

interface Span {
  start: number;
  end: number;
}

function spans(text: string, phrase: string): Span[] {
  const pattern = phrasePattern(phrase);
  if (pattern === undefined) return [];
  return [...text.matchAll(pattern)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** Index of the first whole-word mention of any of the names that does not sit inside an exclusion phrase. */
function firstMention(text: string, subject: Subject): number | undefined {
  const excluded = subject.exclusions.flatMap((phrase) => spans(text, phrase));
  let first: number | undefined;
  for (const name of subject.names) {
    for (const hit of spans(text, name)) {
      if (excluded.some((ex) => hit.start >= ex.start && hit.end <= ex.end)) continue;
      if (first === undefined || hit.start < first) first = hit.start;
      break;
    }
  }
  return first;
}

/** Whether a host (any case, with or without `www.`) is `domain` or one of its subdomains. */
export function isOnDomain(host: string, domain: string): boolean {
  const bare = host.toLowerCase().replace(/^www\./, '');
  return bare === domain || bare.endsWith(`.${domain}`);
}

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** The sentence holding `index`, widened by its neighbours while the whole stays within PASSAGE_MAX characters. */
export function passageAround(text: string, index: number): string {
  const parts = [...sentences.segment(text)].map((s) => ({ start: s.index, end: s.index + s.segment.length }));
  const at = parts.findIndex((p) => index >= p.start && index < p.end);
  let from = at;
  let to = at;
  const length = () => text.slice(parts[from]!.start, parts[to]!.end).trim().length;
  if (length() > PASSAGE_MAX) {
    // One long sentence (or a list without full stops): a window centred on the mention.
    const start = Math.max(0, Math.min(index - PASSAGE_MAX / 2, text.length - PASSAGE_MAX));
    return text.slice(start, start + PASSAGE_MAX).trim();
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [nextFrom, nextTo] of [
      [from - 1, to],
      [from, to + 1],
    ] as const) {
      if (nextFrom < 0 || nextTo >= parts.length) continue;
      if (text.slice(parts[nextFrom]!.start, parts[nextTo]!.end).trim().length > PASSAGE_MAX) continue;
      [from, to] = [nextFrom, nextTo];
      grew = true;
    }
  }
  return text.slice(parts[from]!.start, parts[to]!.end).trim();
}

/**
 * Classifies one answer for each subject. `cited`: one of the subject's domains (or a subdomain) is in the final
 * citation list. Else `mentioned`: a name appears in the text as a whole word, case-insensitively, outside the
 * subject's exclusion phrases. Else `none`. An answer counts once per subject however often the subject appears.
 * A brand named like a common word ("Apple", "Monday") matches that word too: its exclusions ("on Monday") and
 * aliases that are not common words ("Monday.com") are how a workspace keeps such hits out.
 */
export function classifyAnswer(answer: { text: string; citations: readonly Citation[] }, subjects: readonly Subject[]): SubjectResult[] {
  const firsts = subjects.map((subject) => firstMention(answer.text, subject));
  const named = firsts.filter((index): index is number => index !== undefined);
  return subjects.map((subject, i) => {
    const first = firsts[i];
    const cited = answer.citations.some((c) => subject.domains.some((domain) => isOnDomain(c.domain, domain)));
    return {
      subjectId: subject.id,
      result: cited ? 'cited' : first !== undefined ? 'mentioned' : 'none',
      // Subjects first named at the same place share a position.
      position: first === undefined ? null : 1 + named.filter((index) => index < first).length,
      passage: first === undefined ? null : passageAround(answer.text, first),
    };
  });
}
