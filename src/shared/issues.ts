import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

export function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.reduce<string>((name, part) => (typeof part === 'number' ? `${name}[${part}]` : name === '' ? String(part) : `${name}.${String(part)}`), '');
}

function unit(origin: string | undefined, count: number | bigint): string {
  if (origin === 'string') return ` character${count === 1 ? '' : 's'}`;
  if (origin === 'array' || origin === 'set') return ` item${count === 1 ? '' : 's'}`;
  return '';
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
};

/** One issue as `rule`, written for the person or agent who has to fix the call. */
function rule(issue: Issue): string {
  if ('input' in issue && issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) {
    return issue.code === 'invalid_type' && issue.expected === 'never' ? issue.message : 'is required';
  }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'never') return issue.message;
      return `must be ${ARTICLE[issue.expected] ?? issue.expected}`;
    case 'too_big':
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set') {
        return `must have at most ${issue.maximum}${unit(issue.origin, issue.maximum)}`;
      }
      return `must be at most ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set') {
        return `must have at least ${issue.minimum}${unit(issue.origin, issue.minimum)}`;
      }
      return `must be at least ${issue.minimum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_format':
      if (!issue.message.startsWith('Invalid')) return issue.message;
      if (issue.format === 'email') return 'must be an email address';
      if (issue.format === 'url') return 'must be an absolute URL';
      return `must be a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

export function describeIssues(issues: readonly Issue[]): string {
  const parts: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) parts.push(`${fieldName([...issue.path, key])}: is not a field of this operation`);
    } else {
      parts.push(`${fieldName(issue.path)}: ${rule(issue)}`);
    }
  }
  return parts.join('; ');
}
