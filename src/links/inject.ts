import MarkdownIt, { type Token } from 'markdown-it';

/** At most this many internal links are injected into one article. */
export const MAX_INTERNAL_LINKS = 5;
/** Shorter phrases match too much by accident. */
const MIN_PHRASE_CHARS = 3;

/** A page the article may link to, with the phrases that should become its anchor. */
export interface LinkTarget {
  url: string;
  /** Set when the page is one of the workspace's articles. */
  articleId: string | null;
  phrases: string[];
}

export interface InjectedLink {
  toUrl: string;
  toArticleId: string | null;
  anchorText: string;
}

interface CompiledTarget {
  target: LinkTarget;
  pattern: RegExp;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Any of the target's phrases as a whole word or words, case-insensitive, spaces matching any run of spaces. */
function compile(target: LinkTarget): CompiledTarget | null {
  const phrases = target.phrases.map((phrase) => phrase.trim()).filter((phrase) => phrase.length >= MIN_PHRASE_CHARS);
  if (phrases.length === 0) return null;
  // Longest first, so that "content marketing plan" wins over "content marketing" at the same place.
  const alternatives = [...new Set(phrases)].sort((a, b) => b.length - a.length).map((phrase) => phrase.split(/\s+/).map(escapeRegExp).join('\\s+'));
  return { target, pattern: new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'iu') };
}

function textToken(content: string): Token {
  const token = new MarkdownIt.Token('text', '', 0);
  token.content = content;
  return token;
}

function linkTokens(url: string, anchor: string): Token[] {
  const open = new MarkdownIt.Token('link_open', 'a', 1);
  open.attrs = [['href', url]];
  return [open, textToken(anchor), new MarkdownIt.Token('link_close', 'a', -1)];
}

/** The earliest match in `text` among the remaining targets; the longer anchor wins a tie. */
function earliestMatch(text: string, remaining: CompiledTarget[]): { target: CompiledTarget; index: number; anchor: string } | null {
  let best: { target: CompiledTarget; index: number; anchor: string } | null = null;
  for (const candidate of remaining) {
    const match = candidate.pattern.exec(text);
    if (match === null) continue;
    if (best === null || match.index < best.index || (match.index === best.index && match[0].length > best.anchor.length)) {
      best = { target: candidate, index: match.index, anchor: match[0] };
    }
  }
  return best;
}

/**
 * Links the first occurrence of each target's phrase in paragraph and list text, in document order, working on
 * markdown-it's token stream: headings, tables, code and text already inside a link are never touched. One link per
 * target, at most MAX_INTERNAL_LINKS in all. Changes `tokens` in place and returns the links it made.
 */
export function injectInternalLinks(tokens: Token[], targets: LinkTarget[]): InjectedLink[] {
  const remaining = targets.map(compile).filter((target) => target !== null);
  const injected: InjectedLink[] = [];
  tokens.forEach((token, index) => {
    // An inline token right after paragraph_open is prose (list items and quotes hold paragraphs too).
    if (token.type !== 'inline' || tokens[index - 1]?.type !== 'paragraph_open' || token.children === null) return;
    const children: Token[] = [];
    let linkDepth = 0;
    for (const child of token.children) {
      if (child.type === 'link_open') linkDepth++;
      if (child.type === 'link_close') linkDepth--;
      if (child.type !== 'text' || linkDepth > 0) {
        children.push(child);
        continue;
      }
      let rest = child.content;
      while (injected.length < MAX_INTERNAL_LINKS) {
        const match = earliestMatch(rest, remaining);
        if (match === null) break;
        if (match.index > 0) children.push(textToken(rest.slice(0, match.index)));
        const { url, articleId } = match.target.target;
        children.push(...linkTokens(url, match.anchor));
        injected.push({ toUrl: url, toArticleId: articleId, anchorText: match.anchor });
        remaining.splice(remaining.indexOf(match.target), 1);
        rest = rest.slice(match.index + match.anchor.length);
      }
      if (rest !== '') children.push(textToken(rest));
    }
    token.children = children;
  });
  return injected;
}
