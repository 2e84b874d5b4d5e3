import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../src/exports/artifacts.js';


function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks and inline code, where `](…)` is a link and not an example. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = prose(readFileSync(file, 'utf8')).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((line) => anchor(line.replace(/^#+ /, ''))));
}

/** Every relative link target with its fragment, as written in the file. */
function relativeLinks(file: string): string[] {
  const targets = [...prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

describe('documentation links', () => {
  it('every relative link in README.md and docs/ leads to a file that exists, and to a heading it has', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const link of relativeLinks(file)) {
        const [path = '', fragment] = link.split('#');
        const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
        const where = `${relative(ROOT, file)}: ${link}`;
        if (!existsSync(target)) broken.push(`${where} (no such file)`);
        else if (fragment !== undefined && target.endsWith('.md') && !anchorsOf(target).has(fragment)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds the links it checks', () => {
    expect(relativeLinks(join(ROOT, 'README.md'))).toContain('docs/README.md');
  });
});
