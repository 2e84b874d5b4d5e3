import { describe, expect, it } from 'vitest';
import { normaliseCitations } from '../../../src/visibility/engines/engine.js';
import { classifyAnswer, PASSAGE_MAX, passageAround, type Subject } from '../../../src/visibility/checks/classify.js';

const acme: Subject = { id: 'brand', name: 'Acme', domains: ['acme.com'], names: ['Acme', 'Acme Analytics', 'RocketDash', 'acme.com'], exclusions: [] };
const rival: Subject = { id: 'cmp_rival', name: 'Rival', domains: ['rival.io'], names: ['Rival', 'rival.io'], exclusions: [] };

function classify(text: string, subjects: Subject[] = [acme], urls: string[] = []) {
  return classifyAnswer({ text, citations: normaliseCitations(urls.map((url) => ({ url }))) }, subjects);
}

const result = (text: string, subject: Subject = acme, urls: string[] = []) => classify(text, [subject], urls)[0]!.result;

describe('cited', () => {
  it('when one of the subject domains is in the citation list, whatever the text says', () => {
    expect(result('Nothing about it here.', acme, ['https://acme.com/pricing'])).toBe('cited');
  });

  it('includes www. and any subdomain, in any case', () => {
    expect(result('x', acme, ['https://www.acme.com/'])).toBe('cited');
    expect(result('x', acme, ['https://blog.acme.com/post'])).toBe('cited');
    expect(result('x', acme, ['https://docs.eu.ACME.com/a'])).toBe('cited');
  });

  it('not for look-alike domains', () => {
    expect(result('x', acme, ['https://notacme.com/', 'https://acme.com.evil.example/', 'https://acme.co/'])).toBe('none');
  });

  it('wins over a mention, and keeps the position and passage of the mention', () => {
    const [brand] = classify('Acme is the pick.', [acme], ['https://acme.com/']);
    expect(brand).toEqual({ subjectId: 'brand', result: 'cited', position: 1, passage: 'Acme is the pick.' });
  });

  it('without a mention in the text has no position and no passage', () => {
    expect(classify('Try the tools below.', [acme], ['https://acme.com/'])[0]).toMatchObject({ result: 'cited', position: null, passage: null });
  });
});

describe('mentioned', () => {
  it('by the name, an alias, a product name or the bare domain', () => {
    expect(result('We like Acme for this.')).toBe('mentioned');
    expect(result('Acme Analytics does it well.')).toBe('mentioned');
    expect(result('RocketDash has a free plan.')).toBe('mentioned');
    expect(result('See acme.com for prices.')).toBe('mentioned');
  });

  it('case-insensitively', () => {
    expect(result('ACME is good.')).toBe('mentioned');
    expect(result('rocketdash is good.')).toBe('mentioned');
    expect(result('Visit ACME.COM today.')).toBe('mentioned');
  });

  it('with punctuation and possessives around the name', () => {
    for (const text of ["Acme's dashboards", '(Acme)', 'Acme, Rival and others', 'Try Acme.', '"Acme"', 'Acme-powered reports', '**Acme**', 'Acme’s plan']) {
      expect(result(text), text).toBe('mentioned');
    }
  });

  it('only as a whole word', () => {
    for (const text of ['Acmeology is a field.', 'The Pacme tool.', 'acme_bot runs it.', 'Go to acme.company.example', 'mail notacme.com', 'See acme.io for more.']) {
      expect(result(text), text).toBe('none');
    }
  });

  it('by a subdomain or URL of the bare domain, while the name alone does not match another site', () => {
    expect(result('Docs at https://docs.acme.com/start.')).toBe('mentioned');
    expect(result('Not to be confused with acme.io.', { ...acme, names: ['Acme'] })).toBe('none');
  });

  it('across a line break or double space inside a multi-word name', () => {
    expect(result('Acme\nAnalytics is fine.', { ...acme, names: ['Acme Analytics'] })).toBe('mentioned');
    expect(result('Acme  Analytics is fine.', { ...acme, names: ['Acme Analytics'] })).toBe('mentioned');
  });

  it('treats names as text, not as patterns', () => {
    const plus: Subject = { id: 'brand', name: 'C++ Tools', domains: [], names: ['C++ Tools', 'A.B'], exclusions: [] };
    expect(result('Use C++ Tools here.', plus)).toBe('mentioned');
    expect(result('The AxB way.', plus)).toBe('none');
  });

  it('counts an answer once however often the subject appears', () => {
    const [brand] = classify('Acme. Acme again. And acme.com. Acme Analytics.');
    expect(brand).toMatchObject({ result: 'mentioned', position: 1 });
    expect(classify('Acme. Acme again.')).toHaveLength(1);
  });
});

describe('exclusions', () => {
  const notion: Subject = { id: 'brand', name: 'Notion', domains: ['notion.so'], names: ['Notion', 'notion.so'], exclusions: ['notion of', 'the notion that'] };

  it('suppress a name inside an exclusion phrase', () => {
    expect(result('The notion of a second brain is popular.', notion)).toBe('none');
    expect(result('The Notion Of things.', notion)).toBe('none');
    expect(result('I reject the notion that tools matter.', notion)).toBe('none');
  });

  it('leave the other mentions of the same answer counting', () => {
    const [brand] = classify('The notion of a wiki is old. Notion made it popular.', [notion]);
    expect(brand).toMatchObject({ result: 'mentioned', passage: expect.stringContaining('Notion made it popular.') });
  });

  it('do not stop a citation', () => {
    expect(result('The notion of a wiki.', notion, ['https://www.notion.so/product'])).toBe('cited');
  });
});

describe('a brand named like a common word', () => {
  const monday: Subject = {
    id: 'brand',
    name: 'Monday',
    domains: ['monday.com'],
    names: ['Monday', 'monday.com', 'Monday Work Management'],
    exclusions: ['on Monday', 'every Monday', 'next Monday', 'Monday morning'],
  };
  const apple: Subject = { id: 'cmp_apple', name: 'Apple', domains: ['apple.com'], names: ['Apple', 'apple.com'], exclusions: [] };

  it('matches the word itself: exclusions keep the everyday uses out', () => {
    expect(result('Send the report on Monday.', monday)).toBe('none');
    expect(result('We meet every Monday morning.', monday)).toBe('none');
    expect(result('Monday.com is a project tool.', monday)).toBe('mentioned');
    expect(result('Teams use Monday for planning.', monday)).toBe('mentioned');
  });

  it('never matches inside another word or its plural', () => {
    expect(result('Mondays are busy.', monday)).toBe('none');
    expect(result('A pineapple and applesauce.', apple)).toBe('none');
    expect(result('An Apple laptop.', apple)).toBe('mentioned');
  });
});

describe('position', () => {
  it('is the order of first mention among the subjects named', () => {
    const results = classify('Rival leads, then Acme. Rival again.', [acme, rival]);
    expect(results).toEqual([
      expect.objectContaining({ subjectId: 'brand', result: 'mentioned', position: 2 }),
      expect.objectContaining({ subjectId: 'cmp_rival', result: 'mentioned', position: 1 }),
    ]);
  });

  it('counts only named subjects, ignoring ones only cited', () => {
    const third: Subject = { id: 'cmp_third', name: 'Third', domains: ['third.example'], names: ['Third'], exclusions: [] };
    const results = classify('Acme first, Third next.', [acme, rival, third], ['https://rival.io/']);
    expect(results.map((r) => [r.subjectId, r.result, r.position])).toEqual([
      ['brand', 'mentioned', 1],
      ['cmp_rival', 'cited', null],
      ['cmp_third', 'mentioned', 2],
    ]);
  });

  it('is null and the result none when the subject is not named', () => {
    expect(classify('Nothing relevant.', [acme, rival])).toEqual([
      { subjectId: 'brand', result: 'none', position: null, passage: null },
      { subjectId: 'cmp_rival', result: 'none', position: null, passage: null },
    ]);
  });
});

describe('passage', () => {
  it('is the sentence around the first mention, widened by its neighbours within the limit', () => {
    const text = 'First sentence here. Acme is great for small teams. Last one.';
    expect(passageAround(text, text.indexOf('Acme'))).toBe(text);
    const long = `${'Filler words go here. '.repeat(40)}Acme is great. ${'More filler follows here. '.repeat(40)}`;
    const passage = passageAround(long, long.indexOf('Acme'));
    expect(passage).toContain('Acme is great.');
    expect(passage.length).toBeLessThanOrEqual(PASSAGE_MAX);
    expect(passage.length).toBeGreaterThan(400);
  });

  it('is a window around the mention when one sentence is longer than the limit', () => {
    const text = `${'word '.repeat(300)}Acme ${'word '.repeat(300)}`;
    const passage = passageAround(text, text.indexOf('Acme'));
    expect(passage).toContain('Acme');
    expect(passage.length).toBeLessThanOrEqual(PASSAGE_MAX);
  });
});
