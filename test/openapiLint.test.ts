import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../src/exports/artifacts.js';

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
}

describe('openapi.json', () => {
  it("lints with no error and no warning under Redocly's recommended rules, which include validating the document", { timeout: 60_000 }, async () => {
    const lint = promisify(execFile)(
      process.execPath,
      [`${ROOT}node_modules/@redocly/cli/bin/cli.js`, 'lint', `${ROOT}openapi.json`, '--extends=recommended', '--format=json'],
      { cwd: ROOT, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 64 * 1024 * 1024 },
    );
    // A lint with problems exits 1; its report is on stdout either way.
    const { stdout } = await lint.catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
