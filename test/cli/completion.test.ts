import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashCompletion, zshCompletion } from '../../src/cli/completion.js';
import { buildProgram } from '../../src/cli/program.js';

const dir = mkdtempSync(join(tmpdir(), 'sightline-completion-'));
const program = buildProgram();

function shellAvailable(shell: string): boolean {
  try {
    execFileSync(shell, ['-c', 'true']);
    return true;
  } catch {
    return false;
  }
}

describe('bash completion', () => {
  const script = join(dir, 'sightline.bash');
  writeFileSync(script, bashCompletion(program));

  /** What bash offers after the words typed so far (the last one is the word being completed). */
  const offered = (...typed: string[]) => {
    const words = ['sightline', ...typed].map((w) => `'${w}'`).join(' ');
    const out = execFileSync('bash', ['-c', `source '${script}'; COMP_WORDS=(${words}); COMP_CWORD=${typed.length}; _sightline; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
    return out.split('\n').filter((line) => line !== '');
  };

  it('completes groups, commands, flags and enum values', () => {
    expect(offered('')).toEqual(expect.arrayContaining(['login', 'logout', 'whoami', 'completion', 'brand', 'content', 'admin']));
    expect(offered('bra')).toEqual(['brand']);
    expect(offered('brand', 'add-')).toEqual(['add-guideline']);
    expect(offered('brand', 'add-guideline', '--')).toEqual(expect.arrayContaining(['--type', '--avoid', '--instead', '--json', '--url', '--key', '--help']));
    expect(offered('brand', 'add-guideline', '--type', 't')).toEqual(['tone', 'terminology', 'topic']);
    expect(offered('visibility', 'get-score', '--days', '')).toEqual(['7', '30', '90']);
    expect(offered('admin', 'run-checks', '--w')).toEqual(['--workspace', '--wait']);
  });

  it('offers nothing of its own for a free-text value, so the shell completes file names', () => {
    expect(offered('brand', 'add-guideline', '--avoid', '')).toEqual([]);
  });
});

describe.runIf(shellAvailable('zsh'))('zsh completion', () => {
  const script = join(dir, '_sightline');
  writeFileSync(script, zshCompletion(program));

  /** Runs the completion function with zsh's completion builtins replaced by ones that print what they were given. */
  const offered = (...typed: string[]) => {
    const words = ['sightline', ...typed].map((w) => `'${w}'`).join(' ');
    const harness = [
      'compdef() { :; }',
      'compadd() { [[ $1 == -a ]] && print -l -- ${(P)2} }',
      '_describe() { print -l -- ${(P)${@[-1]}} }',
      '_files() { print -- "<files>" }',
      `source '${script}'`,
      `words=(${words}); CURRENT=${typed.length + 1}; PREFIX='${typed.at(-1) ?? ''}'`,
      '_sightline',
    ].join('\n');
    return execFileSync('zsh', ['-f', '-c', harness], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line !== '');
  };

  it('describes groups and commands, lists flags with their help and completes enum values', () => {
    expect(offered('')).toEqual(expect.arrayContaining([expect.stringMatching(/^login:log in with the device flow/), expect.stringMatching(/^brand:11 operations/)]));
    expect(offered('brand', '')).toContainEqual(expect.stringMatching(/^add-guideline:Add a writing guideline/));
    expect(offered('brand', 'add-guideline', '--')).toContainEqual(expect.stringMatching(/^--type:What the guideline is about/));
    expect(offered('brand', 'add-guideline', '--type', '')).toEqual(['tone', 'terminology', 'topic', 'style', 'factual']);
    expect(offered('brand', 'add-guideline', '--avoid', '')).toEqual(['<files>']);
  });

  it('parses as a zsh script', () => {
    expect(() => execFileSync('zsh', ['-n', script])).not.toThrow();
  });
});
