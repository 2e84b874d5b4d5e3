import { parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findArticle } from '../../src/content/articles.js';
import { renderArticle } from '../../src/content/render.js';
import { MAX_INTERNAL_LINKS } from '../../src/links/inject.js';
import { TestService } from '../support/harness.js';
import { insertPublishedArticle, insertWrittenArticle } from '../links/support.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function render(workspaceId: string, articleId: string, canonicalUrl: string | null = null) {
  return renderArticle(t.db, t.clock, workspaceId, await findArticle(t.db, workspaceId, articleId), { canonicalUrl });
}

interface Element {
  name: string;
  attribs: Record<string, string>;
  children: Node[];
}
type Node = Element | { type: string; data?: string; children?: Node[] };

function elements(html: string): Element[] {
  const found: Element[] = [];
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      if ('name' in node) found.push(node);
      if (node.children) walk(node.children);
    }
  };
  walk(parseDocument(html).children as Node[]);
  return found;
}

function addPages(workspaceId: string, pages: Array<{ url: string; title?: string; keywords: string[] }>) {
  return t.db
    .insertInto('site_pages')
    .values(
      pages.map((page, i) => ({
        id: `sp_${workspaceId}_${i}_${Math.random().toString(36).slice(2)}`,
        workspace_id: workspaceId,
        url: page.url,
        title: page.title ?? null,
        keywords: JSON.stringify(page.keywords),
        source: 'manual' as const,
        created_at: t.clock.now() + i,
      })),
    )
    .execute();
}

describe('renderArticle: sanitised HTML', () => {
  it('leaves a script tag, an onerror attribute and a javascript: link inert', async () => {
    const ws = await t.workspace();
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, {
      markdown:
        'Intro <script>alert(1)</script> text.\n\n<img src=x onerror="alert(2)">\n\n[click me](javascript:alert(3)) and [ok](https://example.org/a)\n\n' +
        '<a href="javascript:alert(4)">raw</a>',
      faq: JSON.stringify([{ question: 'Is <script>alert(5)</script> safe?', answer: '<img src=x onerror=alert(6)>' }]),
    });
    const { html } = await render(ws.workspaceId, id);
    const all = elements(html);
    expect(all.filter((el) => ['script', 'img', 'iframe', 'style'].includes(el.name))).toEqual([]);
    for (const el of all) {
      expect(Object.keys(el.attribs).filter((name) => name.startsWith('on'))).toEqual([]);
      expect(el.attribs.href ?? '').not.toMatch(/^\s*javascript:/i);
    }
    expect(all.filter((el) => el.name === 'a').map((el) => el.attribs.href)).toEqual(['https://example.org/a']);
    // The escaped text is still there for the reader to see.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('keeps only http(s) image sources, behind what markdown-it lets through', async () => {
    const ws = await t.workspace();
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { markdown: '![pixel](data:image/png;base64,AAAA) ![chart](https://cdn.example/chart.png)' });
    const images = elements((await render(ws.workspaceId, id)).html).filter((el) => el.name === 'img');
    expect(images.map((el) => el.attribs)).toEqual([{ alt: 'pixel' }, { src: 'https://cdn.example/chart.png', alt: 'chart' }]);
  });

  it('renders Markdown structure: headings, lists, code, links', async () => {
    const ws = await t.workspace();
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, {
      markdown: '## Section\n\n- one\n- **two**\n\n```js\nconst a = 1;\n```\n\nSee https://example.org/docs.',
    });
    const { html } = await render(ws.workspaceId, id);
    expect(html).toContain('<h2>Section</h2>');
    expect(html).toContain('<li><strong>two</strong></li>');
    expect(html).toContain('<pre><code class="language-js">const a = 1;\n</code></pre>');
    expect(html).toContain('<a href="https://example.org/docs">https://example.org/docs</a>');
  });
});

describe('renderArticle: FAQ and JSON-LD', () => {
  it('appends the FAQ and a FAQPage only when the article has a FAQ', async () => {
    const ws = await t.workspace({ name: 'Acme CRM', site: 'https://acme-crm.example' });
    const faq = [
      { question: 'What is a CRM?', answer: 'Software that keeps customer conversations together.' },
      { question: 'Do startups need one?', answer: 'Once more than one person talks to customers, yes.' },
    ];
    const author = { name: 'Dana Writer', bio: 'Writes about sales tools.', linkedinUrl: 'https://www.linkedin.com/in/dana' };
    const withFaq = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { faq: JSON.stringify(faq), author: JSON.stringify(author), language: 'en-GB' });
    const rendered = await render(ws.workspaceId, withFaq, 'https://acme-crm.example/blog/crm');
    expect(rendered.faq).toEqual(faq);
    expect(rendered.language).toBe('en-GB');
    expect(rendered.author).toEqual(author);
    expect(rendered.html).toContain('<section class="faq">\n<h2>FAQ</h2>\n<h3>What is a CRM?</h3>\n<p>Software that keeps customer conversations together.</p>');
    expect(rendered.markdown).toContain('## FAQ\n\n### What is a CRM?\n\nSoftware that keeps customer conversations together.');
    const ld = JSON.parse(rendered.schemaJsonLd) as { '@context': string; '@graph': Array<Record<string, unknown>> };
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@graph'].map((node) => node['@type'])).toEqual(['Article', 'FAQPage']);
    expect(ld['@graph'][0]).toMatchObject({
      headline: 'How to choose a CRM for startups',
      description: 'What to look for in a CRM when your startup outgrows spreadsheets.',
      author: { '@type': 'Person', name: 'Dana Writer', description: 'Writes about sales tools.', sameAs: ['https://www.linkedin.com/in/dana'] },
      datePublished: new Date(t.clock.now()).toISOString(),
      dateModified: new Date(t.clock.now()).toISOString(),
      inLanguage: 'en-GB',
      mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://acme-crm.example/blog/crm' },
      publisher: { '@type': 'Organization', name: 'Acme CRM', url: 'https://acme-crm.example' },
    });
    expect(ld['@graph'][1]).toEqual({
      '@type': 'FAQPage',
      mainEntity: faq.map((entry) => ({ '@type': 'Question', name: entry.question, acceptedAnswer: { '@type': 'Answer', text: entry.answer } })),
    });

    const withoutFaq = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { faq: '[]' });
    const plain = await render(ws.workspaceId, withoutFaq);
    expect(plain.html).not.toContain('FAQ');
    expect(plain.markdown).not.toContain('FAQ');
    const plainLd = JSON.parse(plain.schemaJsonLd) as { '@graph': Array<Record<string, unknown>> };
    expect(plainLd['@graph'].map((node) => node['@type'])).toEqual(['Article']);
    expect(plainLd['@graph'][0]).not.toHaveProperty('author');
    expect(plainLd['@graph'][0]).not.toHaveProperty('mainEntityOfPage');
    expect(plain.author).toBeNull();
  });

  it('keeps the JSON-LD safe inside a script element and still the same JSON', async () => {
    const ws = await t.workspace();
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { title: 'Why </script><script>alert(1)</script> matters' });
    const { schemaJsonLd } = await render(ws.workspaceId, id);
    expect(schemaJsonLd).not.toContain('<');
    const ld = JSON.parse(schemaJsonLd) as { '@graph': Array<{ headline?: string }> };
    expect(ld['@graph'][0]?.headline).toBe('Why </script><script>alert(1)</script> matters');
  });

  it('refuses an article that is not written yet, naming contentId', async () => {
    const ws = await t.workspace();
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { markdown: null, status: 'planned' });
    await expect(render(ws.workspaceId, id)).rejects.toThrow(/^contentId: .*not written yet/);
  });
});

describe('renderArticle: internal links', () => {
  it('links the first occurrence of each target in prose only, never in headings, links or code, and never to itself', async () => {
    const ws = await t.workspace();
    await addPages(ws.workspaceId, [
      { url: 'https://acme.example/pricing', title: 'Pricing', keywords: ['pricing plans'] },
      { url: 'https://acme.example/features', keywords: ['pipeline view'] },
      { url: 'https://acme.example/self', keywords: ['self page'] },
    ]);
    const other = await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'https://acme.example/blog/sales-email', { keyword: 'sales email templates', title: 'Sales email templates that work' });
    const markdown = [
      '## Pricing plans compared',
      'Our Pricing Plans are simple, and pricing plans again.',
      '- Try the `pipeline view` in code, then the [pipeline view](https://acme.example/other) link, then the pipeline view itself.',
      '```\nsales email templates\n```',
      '| sales email templates |\n|---|\n| sales email templates |',
      '> Quoted: sales email templates help. Also the self page.',
    ].join('\n\n');
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { markdown });
    const rendered = await render(ws.workspaceId, id, 'https://acme.example/self');

    expect(rendered.links).toEqual([
      { toUrl: 'https://acme.example/pricing', toArticleId: null, anchorText: 'Pricing Plans' },
      { toUrl: 'https://acme.example/features', toArticleId: null, anchorText: 'pipeline view' },
      { toUrl: 'https://acme.example/blog/sales-email', toArticleId: other, anchorText: 'sales email templates' },
    ]);
    expect(rendered.html).toContain('<h2>Pricing plans compared</h2>');
    expect(rendered.html).toContain('Our <a href="https://acme.example/pricing">Pricing Plans</a> are simple, and pricing plans again.');
    expect(rendered.html).toContain(
      '<code>pipeline view</code> in code, then the <a href="https://acme.example/other">pipeline view</a> link, then the <a href="https://acme.example/features">pipeline view</a> itself.',
    );
    expect(rendered.html).toContain('<pre><code>sales email templates\n</code></pre>');
    expect(rendered.html).toContain('<th>sales email templates</th>');
    expect(rendered.html).toContain('Quoted: <a href="https://acme.example/blog/sales-email">sales email templates</a> help. Also the self page.');
  });

  it('matches whole words only and leaves drafts and address-less articles out', async () => {
    const ws = await t.workspace();
    await addPages(ws.workspaceId, [{ url: 'https://acme.example/crm', keywords: ['crm'] }]);
    await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { keyword: 'lead scoring' });
    await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'https://acme.example/x', { keyword: 'deal stages', url: null });
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { markdown: 'A CRMs list, lead scoring, deal stages, then a crm.' });
    const rendered = await render(ws.workspaceId, id);
    expect(rendered.links).toEqual([{ toUrl: 'https://acme.example/crm', toArticleId: null, anchorText: 'crm' }]);
    expect(rendered.html).toContain('<p>A CRMs list, lead scoring, deal stages, then a <a href="https://acme.example/crm">crm</a>.</p>');
  });

  it(`injects at most ${MAX_INTERNAL_LINKS} links`, async () => {
    const ws = await t.workspace();
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
    await addPages(ws.workspaceId, words.map((word) => ({ url: `https://acme.example/${word}`, keywords: [word] })));
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { markdown: words.join(' and ') + '.' });
    const rendered = await render(ws.workspaceId, id);
    expect(rendered.links.map((link) => link.anchorText)).toEqual(words.slice(0, MAX_INTERNAL_LINKS));
  });

  it("records the links and replaces the article's previous set on a re-render", async () => {
    const ws = await t.workspace();
    await addPages(ws.workspaceId, [
      { url: 'https://acme.example/a', keywords: ['first topic'] },
      { url: 'https://acme.example/b', keywords: ['second topic'] },
    ]);
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { markdown: 'About the first topic.' });
    const recorded = () =>
      t.db.selectFrom('internal_links').select(['from_article_id', 'to_url', 'to_article_id', 'anchor_text', 'rendered_at']).where('from_article_id', '=', id).execute();
    await render(ws.workspaceId, id);
    expect(await recorded()).toEqual([{ from_article_id: id, to_url: 'https://acme.example/a', to_article_id: null, anchor_text: 'first topic', rendered_at: t.clock.now() }]);

    t.clock.advance(60_000);
    await t.db.updateTable('articles').set({ markdown: 'Now about the second topic.' }).where('id', '=', id).execute();
    await render(ws.workspaceId, id);
    expect(await recorded()).toEqual([{ from_article_id: id, to_url: 'https://acme.example/b', to_article_id: null, anchor_text: 'second topic', rendered_at: t.clock.now() }]);

    await t.db.updateTable('articles').set({ markdown: 'Nothing to link.' }).where('id', '=', id).execute();
    await render(ws.workspaceId, id);
    expect(await recorded()).toEqual([]);
  });

  it("never links to another workspace's pages or articles", async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ site: 'https://other.example' });
    await addPages(other.workspaceId, [{ url: 'https://other.example/p', keywords: ['shared phrase'] }]);
    await insertPublishedArticle(t.db, t.clock, other.workspaceId, 'https://other.example/blog/a', { keyword: 'another phrase' });
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { markdown: 'A shared phrase and another phrase.' });
    expect((await render(ws.workspaceId, id)).links).toEqual([]);
  });
});
