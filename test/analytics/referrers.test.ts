import { describe, expect, it } from 'vitest';
import { AI_ENGINES, classifyVisitSource, SEARCH_ENGINES, SOCIAL_NETWORKS, type VisitInput } from '../../src/analytics/referrers.js';

const SITE = 'acme.example';
const classify = (input: VisitInput) => classifyVisitSource({ siteHost: SITE, ...input });
const fromReferrer = (referrer: string | null) => classify({ referrer });

describe('classifyVisitSource', () => {
  it.each([
    ['https://chatgpt.com/', 'chatgpt', 'chatgpt.com'],
    ['https://chat.openai.com/c/123', 'chatgpt', 'chat.openai.com'],
    ['https://www.perplexity.ai/search/best-crm-Xy12', 'perplexity', 'perplexity.ai'],
    ['https://perplexity.ai/', 'perplexity', 'perplexity.ai'],
    ['https://gemini.google.com/app/3f2a', 'gemini', 'gemini.google.com'],
    ['https://bard.google.com/', 'gemini', 'bard.google.com'],
    ['https://claude.ai/chat/9c1', 'claude', 'claude.ai'],
    ['https://copilot.microsoft.com/', 'copilot', 'copilot.microsoft.com'],
    ['https://www.bing.com/chat?q=best+crm', 'copilot', 'bing.com'],
    ['https://edgeservices.bing.com/edgesvc/chat', 'copilot', 'edgeservices.bing.com'],
    ['https://copilot.cloud.microsoft/', 'copilot', 'copilot.cloud.microsoft'],
    ['https://chat.deepseek.com/a/chat/s/1', 'deepseek', 'chat.deepseek.com'],
    ['https://www.meta.ai/', 'meta_ai', 'meta.ai'],
    ['https://chat.mistral.ai/chat', 'mistral', 'chat.mistral.ai'],
    ['https://you.com/search?q=crm', 'you', 'you.com'],
    ['https://grok.com/', 'grok', 'grok.com'],
    ['https://x.com/i/grok?conversation=1', 'grok', 'x.com'],
    ['https://kagi.com/assistant', 'kagi_assistant', 'kagi.com'],
  ])('%s is the answer engine %s', (referrer, engine, referrerHost) => {
    expect(fromReferrer(referrer)).toEqual({ source: 'ai', engine, referrerHost });
  });

  it.each([
    'https://www.google.com/',
    'https://www.google.co.uk/search?q=acme',
    'https://google.de/',
    'https://images.google.fr/',
    'android-app://com.google.android.googlequicksearchbox/',
    'https://www.bing.com/search?q=acme',
    'https://cn.bing.com/',
    'https://duckduckgo.com/',
    'https://uk.search.yahoo.com/',
    'https://www.ecosia.org/search?q=crm',
    'https://search.brave.com/search?q=crm',
    'https://yandex.ru/search/',
    'https://yandex.com.tr/',
    'https://www.baidu.com/link?url=1',
    'https://www.startpage.com/',
    'https://www.qwant.com/?q=crm',
    'https://kagi.com/search?q=crm',
  ])('%s is search', (referrer) => {
    expect(fromReferrer(referrer)).toMatchObject({ source: 'search', engine: null });
  });

  it.each([
    'https://l.facebook.com/',
    'https://m.facebook.com/story.php',
    'https://www.instagram.com/',
    'https://www.linkedin.com/feed/',
    'https://lnkd.in/abc',
    'https://t.co/aBc123',
    'https://x.com/acme/status/1',
    'https://twitter.com/acme',
    'https://old.reddit.com/r/crm/',
    'https://out.reddit.com/t3_x',
    'https://m.youtube.com/watch?v=1',
    'https://youtu.be/1',
    'https://www.pinterest.co.uk/pin/1',
    'https://www.tiktok.com/@acme',
    'https://bsky.app/profile/acme.example',
    'https://mastodon.social/@acme',
    'https://mastodon.example.org/@acme',
    'https://fosstodon.org/@acme',
  ])('%s is social', (referrer) => {
    expect(fromReferrer(referrer)).toMatchObject({ source: 'social', engine: null });
  });

  it('counts no referrer, an empty one and the providers’ words for none as direct', () => {
    for (const referrer of [null, '', '   ', 'Direct / None', '(direct)', '(none)']) {
      expect(fromReferrer(referrer)).toEqual({ source: 'direct', engine: null, referrerHost: null });
    }
  });

  it("counts the site's own host as direct, with or without www. and a port, but not its subdomains", () => {
    expect(fromReferrer('https://acme.example/pricing')).toEqual({ source: 'direct', engine: null, referrerHost: 'acme.example' });
    expect(fromReferrer('https://WWW.Acme.Example:8443/')).toEqual({ source: 'direct', engine: null, referrerHost: 'acme.example' });
    expect(classifyVisitSource({ referrer: 'https://acme.example/', siteHost: 'https://www.acme.example/' }).source).toBe('direct');
    expect(fromReferrer('https://blog.acme.example/')).toEqual({ source: 'other', engine: null, referrerHost: 'blog.acme.example' });
    // Without a site host, the same referrer is just another site.
    expect(classifyVisitSource({ referrer: 'https://acme.example/pricing' }).source).toBe('other');
  });

  it('reads hosts with ports, upper case, trailing dots and no scheme', () => {
    expect(fromReferrer('https://CHATGPT.COM:443/')).toEqual({ source: 'ai', engine: 'chatgpt', referrerHost: 'chatgpt.com' });
    expect(fromReferrer('https://www.google.com./')).toMatchObject({ source: 'search', referrerHost: 'google.com' });
    // Plausible and Umami report referrers without their scheme.
    expect(fromReferrer('google.com/search')).toMatchObject({ source: 'search', referrerHost: 'google.com' });
    expect(fromReferrer('bing.com/chat')).toEqual({ source: 'ai', engine: 'copilot', referrerHost: 'bing.com' });
    expect(fromReferrer('perplexity.ai')).toEqual({ source: 'ai', engine: 'perplexity', referrerHost: 'perplexity.ai' });
  });

  it('does not take a look-alike host or path for a known one', () => {
    expect(fromReferrer('https://notchatgpt.com/')).toMatchObject({ source: 'other' });
    expect(fromReferrer('https://chatgpt.com.evil.example/')).toMatchObject({ source: 'other' });
    expect(fromReferrer('https://www.bing.com/chatter')).toMatchObject({ source: 'search' });
    expect(fromReferrer('https://x.com/i/grokking')).toMatchObject({ source: 'social' });
    // Gmail and Google Docs are Google hosts, not its search.
    expect(fromReferrer('https://mail.google.com/mail/u/0/')).toMatchObject({ source: 'other', referrerHost: 'mail.google.com' });
    expect(fromReferrer('https://docs.google.com/document/d/1')).toMatchObject({ source: 'other' });
  });

  it('counts malformed and non-web referrers as other, without a host', () => {
    for (const referrer of ['https://', 'http://exa mple.com/', 'ftp://files.example/', 'javascript:alert(1)', 'not a url at all']) {
      expect(fromReferrer(referrer)).toEqual({ source: 'other', engine: null, referrerHost: null });
    }
  });

  it('knows the names providers report sources under, whatever their case and punctuation', () => {
    expect(fromReferrer('Google')).toEqual({ source: 'search', engine: null, referrerHost: null });
    expect(fromReferrer('DuckDuckGo')).toMatchObject({ source: 'search' });
    expect(fromReferrer('Yahoo!')).toMatchObject({ source: 'search' });
    expect(fromReferrer('Brave Search')).toMatchObject({ source: 'search' });
    expect(fromReferrer('Perplexity')).toEqual({ source: 'ai', engine: 'perplexity', referrerHost: null });
    expect(fromReferrer('Meta AI')).toEqual({ source: 'ai', engine: 'meta_ai', referrerHost: null });
    expect(fromReferrer('Facebook')).toMatchObject({ source: 'social' });
    expect(fromReferrer('Hacker Newsletter')).toEqual({ source: 'other', engine: null, referrerHost: null });
  });

  it('lets a utm_source that names a known source win over the referrer', () => {
    expect(classify({ referrer: 'https://www.google.com/', utmSource: 'chatgpt.com' })).toEqual({ source: 'ai', engine: 'chatgpt', referrerHost: 'google.com' });
    expect(classify({ referrer: null, utmSource: 'chatgpt' })).toEqual({ source: 'ai', engine: 'chatgpt', referrerHost: null });
    expect(classify({ referrer: 'https://acme.example/', utmSource: 'perplexity' })).toMatchObject({ source: 'ai', engine: 'perplexity' });
    expect(classify({ referrer: 'https://chatgpt.com/', utmSource: 'FB' })).toMatchObject({ source: 'social', engine: null });
    expect(classify({ referrer: null, utmSource: 'l.facebook.com' })).toMatchObject({ source: 'social' });
    expect(classify({ referrer: null, utmSource: 'google', utmMedium: 'cpc' })).toMatchObject({ source: 'search' });
  });

  it('keeps the referrer when the utm_source names nothing known, and calls an unknown tag alone other, not direct', () => {
    expect(classify({ referrer: 'https://claude.ai/', utmSource: 'newsletter' })).toEqual({ source: 'ai', engine: 'claude', referrerHost: 'claude.ai' });
    expect(classify({ referrer: null, utmSource: 'newsletter', utmMedium: 'email' })).toEqual({ source: 'other', engine: null, referrerHost: null });
    // GA4 reports self-referrals with the site's host as source.
    expect(classify({ utmSource: 'acme.example', utmMedium: 'referral' })).toEqual({ source: 'direct', engine: null, referrerHost: null });
    expect(classify({ utmSource: '(direct)', utmMedium: '(none)' })).toEqual({ source: 'direct', engine: null, referrerHost: null });
  });

  it('uses utm_medium only for what neither the tag nor the referrer names', () => {
    expect(classify({ utmSource: 'mysearch', utmMedium: 'organic' })).toMatchObject({ source: 'search' });
    expect(classify({ referrer: 'https://forum.example/', utmMedium: 'social' })).toMatchObject({ source: 'social', referrerHost: 'forum.example' });
    expect(classify({ utmSource: 'partner', utmMedium: 'Social-Media' })).toMatchObject({ source: 'social' });
    expect(classify({ referrer: 'https://claude.ai/', utmMedium: 'organic' })).toMatchObject({ source: 'ai', engine: 'claude' });
  });
});

describe('the source lists', () => {
  it('name each answer engine once, the five checked engines first, with at least one host each', () => {
    const engines = AI_ENGINES.map((entry) => entry.engine);
    expect(new Set(engines).size).toBe(engines.length);
    expect(engines.slice(0, 5)).toEqual(['chatgpt', 'perplexity', 'gemini', 'claude', 'copilot']);
    for (const entry of AI_ENGINES) expect(entry.hosts.length).toBeGreaterThan(0);
  });

  it('classify every listed host as its own entry', () => {
    const host = (pattern: string) => pattern.replace(/^\*\./, '').replace(/\.\*(?=\/|$)/, '.com');
    for (const entry of AI_ENGINES) {
      for (const pattern of entry.hosts) expect(fromReferrer(`https://${host(pattern)}`), pattern).toMatchObject({ source: 'ai', engine: entry.engine });
    }
    for (const [source, list] of [
      ['search', SEARCH_ENGINES],
      ['social', SOCIAL_NETWORKS],
    ] as const) {
      for (const entry of list) for (const pattern of entry.hosts) expect(fromReferrer(`https://${host(pattern)}`), pattern).toMatchObject({ source });
    }
  });
});
