/** A block of a hand-written page that `npm run export` writes: its markers, and the page it lives in. */
export interface GeneratedBlock {
  start: string;
  end: string;
  /** Relative to the repository root, for the refusal's message. */
  page: string;
}

/** Replaces what lies between the block's markers (the markers included) with `content`; throws when they are missing. */
export function withGeneratedBlock(text: string, block: GeneratedBlock, content: string): string {
  const start = text.indexOf(block.start);
  const end = text.indexOf(block.end);
  if (start === -1 || end === -1) throw new Error(`${block.page} lacks the markers ${block.start} … ${block.end}`);
  return text.slice(0, start) + content + text.slice(end + block.end.length);
}
