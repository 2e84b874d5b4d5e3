const EXCERPT_CHARS = 1000;
const TITLE_CHARS = 200;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', mdash: '—', ndash: '–' };

/** Sources send titles and bodies with entities (`&#39;`, `&#x2F;`, `&amp;`), even where they send no tags. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Plain text from a source's HTML: block ends become line breaks, so that the first line can stand as a title. */
export function plainText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<(br|\/p|p|\/div|\/li|\/h[1-6]|\/pre|\/blockquote)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '');
  return tidyText(decodeEntities(text));
}

/** Whitespace runs made single within each line, empty lines dropped: for text that is already plain (Bluesky's). */
export function tidyText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** At most 1,000 characters of plain text. */
export function excerptOf(text: string): string {
  return cut(text.trim(), EXCERPT_CHARS);
}

/** A title of at most 200 characters: the given one, or for posts without one the first line of the text. */
export function titleOf(title: string | null | undefined, text: string): string {
  const line = title?.trim() || text.split('\n').find((candidate) => candidate.trim() !== '') || '';
  return cut(line.replace(/\s+/g, ' ').trim(), TITLE_CHARS);
}
