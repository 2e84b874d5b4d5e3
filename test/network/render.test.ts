import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { type NetworkLink, relatedReadingHtml, relatedReadingMarkdown } from '../../src/network/render.js';

describe('the network link in the Markdown copy', () => {
  // A destination rendering the Markdown with raw HTML allowed, as most Markdown renderers do by default.
  const destination = new MarkdownIt({ html: true });

  it('is inline HTML carrying the rel, so a Markdown destination publishes the same link as the HTML copy', () => {
    const link: NetworkLink = { url: 'https://acme.example/a?b=1&c="2"', anchor: 'Fish & *Chips* [x] <b>_', rel: 'sponsored' };
    const markdown = relatedReadingMarkdown(link);
    expect(markdown).toBe('\n\nRelated reading: <a href="https://acme.example/a?b=1&amp;c=&quot;2&quot;" rel="sponsored">Fish &amp; \\*Chips\\* \\[x\\] &lt;b&gt;\\_</a>');
    expect(destination.render(markdown)).toBe(relatedReadingHtml(link));
  });

  it('has no rel only for a dofollow link, and nofollow as chosen', () => {
    const link: NetworkLink = { url: 'https://acme.example/pricing', anchor: 'Acme', rel: 'dofollow' };
    expect(relatedReadingMarkdown(link)).toBe('\n\nRelated reading: <a href="https://acme.example/pricing">Acme</a>');
    expect(relatedReadingMarkdown({ ...link, rel: 'nofollow' })).toBe('\n\nRelated reading: <a href="https://acme.example/pricing" rel="nofollow">Acme</a>');
    expect(relatedReadingMarkdown(undefined)).toBe('');
  });
});
