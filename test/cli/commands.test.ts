import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { addOperationCommands, commandName, inputFlags, type OperationInvocation } from '../../adapters/cli.js';
import { loadCatalogue } from '../../src/cli/catalogue.js';
import { CONVENIENCE_COMMANDS } from '../../src/cli/outreachImport.js';
import { buildProgram } from '../../src/cli/program.js';
import { registry } from '../../tools/index.js';

/** The generated commands with a runner that keeps what it was given instead of calling a server. */
function capturingProgram(): { program: Command; calls: OperationInvocation[] } {
  const calls: OperationInvocation[] = [];
  const program = new Command('sightline').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  addOperationCommands(program, loadCatalogue(), async (invocation) => {
    calls.push(invocation);
  });
  return { program, calls };
}

async function invoke(...args: string[]): Promise<OperationInvocation> {
  const { program, calls } = capturingProgram();
  await program.parseAsync(args, { from: 'user' });
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

async function refusal(...args: string[]): Promise<string> {
  const { program } = capturingProgram();
  const error = await program.parseAsync(args, { from: 'user' }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CommanderError);
  return (error as CommanderError).message;
}

const find = (parent: Command, name: string) => parent.commands.find((command) => command.name() === name);

// The program is built from src/cli/operations.json, the registry's export; these iterate the registry itself, so a
// new operation fails here until it has its command (and the export is rerun).
describe('the command tree', () => {
  const program = buildProgram();

  it('has a command for every operation in the registry, at sightline <toolset> <name>', () => {
    for (const operation of registry.operations) {
      const command = find(find(program, operation.toolset) ?? program, commandName(operation));
      expect(command, `${operation.operationId} has no command`).toBeDefined();
      expect(command!.description()).toBe(operation.description);
    }
  });

  it('offers --full only on the reports it summarises', () => {
    const hasFull = (command: Command | undefined) => command!.options.some((option) => option.long === '--full');
    expect(hasFull(find(find(program, 'analytics')!, 'get-crawler-access'))).toBe(true);
    expect(hasFull(find(find(program, 'visibility')!, 'get-score'))).toBe(false);
  });

  it('has no operation command the registry does not declare, and no two with one name', () => {
    const declared = new Set(registry.operations.map((op) => `${op.toolset} ${commandName(op)}`));
    const present = registry.toolsets
      .flatMap((toolset) => find(program, toolset)!.commands.map((command) => `${toolset} ${command.name()}`))
      .filter((name) => !(CONVENIENCE_COMMANDS as readonly string[]).includes(name));
    expect(new Set(present)).toEqual(declared);
    expect(declared.size).toBe(registry.operations.length);
    expect(present).toHaveLength(registry.operations.length);
  });

  it('names commands after the operationId without the group word', () => {
    const name = (id: string) => commandName(registry.get(id)!);
    expect(name('add_brand_guideline')).toBe('add-guideline');
    expect(name('add_query')).toBe('add');
    expect(name('get_rankings_')).toBe('get-rankings');
    expect(name('post_auth_device_start')).toBe('device-start');
    expect(name('get_approval')).toBe('get');
  });

  it('has a flag for every input property, with its help, required mark and choices', () => {
    for (const operation of registry.operations) {
      const command = find(find(program, operation.toolset)!, commandName(operation))!;
      const help = command.helpInformation();
      const properties = Object.entries((operation.inputJsonSchema.properties ?? {}) as Record<string, { not?: unknown }>);
      const flags = inputFlags(operation);
      expect(flags.map((f) => f.property)).toEqual(properties.filter(([, schema]) => schema.not === undefined).map(([name]) => name));
      for (const flag of flags) {
        expect(help, `${operation.operationId} --${flag.flag}`).toContain(`--${flag.flag}`);
        if (flag.required) expect(command.options.find((o) => o.long === `--${flag.flag}`)!.description).toContain('(required');
      }
    }
    const addGuideline = find(find(program, 'brand')!, 'add-guideline')!;
    expect(addGuideline.options.find((o) => o.long === '--type')!.argChoices).toEqual(['tone', 'terminology', 'topic', 'style', 'factual']);
    // The placeholder says what kind of value a flag takes.
    const flagsOf = (toolset: string, name: string) => find(find(program, toolset)!, name)!.options.map((o) => o.flags);
    expect(flagsOf('content', 'plan-titles')).toEqual(expect.arrayContaining(['--count <integer>', '--topic <text>', '--keywords <text>']));
    expect(flagsOf('visibility', 'add-competitor')).toContain('--website-url <url>');
    expect(flagsOf('brand', 'add-guideline')).toContain('--type <choice>');
    expect(flagsOf('brand', 'set-guideline-active')).toEqual(expect.arrayContaining(['--on', '--no-on']));
    expect(flagsOf('content', 'commit-planned-titles')).toContain('--titles <json>');
  });

  it('keeps the client options for the client: an input named like one gets --input-<name>', () => {
    const detect = inputFlags(registry.get('detect_site_pages')!);
    expect(detect).toContainEqual(expect.objectContaining({ property: 'url', flag: 'input-url' }));
  });
});

describe('flags to input', () => {
  it('passes text, numbers and switches with the property names the API uses', async () => {
    const call = await invoke('content', 'plan-titles', '--count', '3', '--topic', 'dental crm', '--keywords', 'crm', '--keywords', 'dentist crm', '--json', '--wait');
    expect(call.operation.operationId).toBe('plan_titles');
    expect(call.input).toEqual({ count: 3, topic: 'dental crm', keywords: ['crm', 'dentist crm'] });
    expect(call.client).toEqual({ json: true, wait: true, full: false });
    expect((await invoke('auth', 'device-start', '--client-id', 'ci')).input).toEqual({ client_id: 'ci' });
  });

  it('sends false with --no-<flag>, null for a nullable field, and true for --confirm', async () => {
    expect((await invoke('brand', 'set-guideline-active', '--guideline-id', 'gl_1', '--no-on')).input).toEqual({ guidelineId: 'gl_1', on: false });
    expect((await invoke('brand', 'update-identity', '--no-sub-industry')).input).toEqual({ subIndustry: null });
    expect((await invoke('team', 'remove-member', '--user-id', 'usr_1', '--confirm')).input).toEqual({ userId: 'usr_1', confirm: true });
  });

  it('takes lists as repeated flags or a JSON array (an empty one clears), and records as JSON or @file', async () => {
    expect((await invoke('brand', 'update-identity', '--brand-aliases', '["Acme","Acme Inc"]', '--brand-aliases', 'ACME')).input).toEqual({ brandAliases: ['Acme', 'Acme Inc', 'ACME'] });
    expect((await invoke('brand', 'update-identity', '--brand-exclusions', '[]')).input).toEqual({ brandExclusions: [] });
    const file = join(mkdtempSync(join(tmpdir(), 'sightline-cli-input-')), 'titles.json');
    writeFileSync(file, JSON.stringify([{ title: 'A title', keyword: 'a keyword' }]));
    expect((await invoke('content', 'commit-planned-titles', '--titles', `@${file}`)).input).toEqual({ titles: [{ title: 'A title', keyword: 'a keyword' }] });
    expect((await invoke('brand', 'write-icp', '--demographics', '{"ageRange":"30-50"}')).input).toEqual({ demographics: { ageRange: '30-50' } });
  });

  it('merges --input with the flags, the flags winning', async () => {
    const call = await invoke('brand', 'add-guideline', '--input', '{"type":"tone","avoid":"hype","instead":"facts"}', '--avoid', 'buzzwords');
    expect(call.input).toEqual({ type: 'tone', avoid: 'buzzwords', instead: 'facts' });
  });

  it('leaves the rules to the service, but refuses what cannot be read as the flag says', async () => {
    // A number that does not parse is sent as text: the service names the field and its rule.
    expect((await invoke('content', 'plan-titles', '--count', 'many')).input).toEqual({ count: 'many' });
    expect(await refusal('brand', 'add-guideline', '--type', 'mood')).toContain('Allowed choices are tone, terminology, topic, style, factual');
    expect(await refusal('content', 'update-article-policy', '--publish-days', 'mon', '--publish-days', 'someday')).toContain('"someday" is not one of mon, tue, wed, thu, fri, sat, sun');
    expect(await refusal('content', 'commit-planned-titles', '--titles', '[{')).toContain('must be an array in JSON');
    expect(await refusal('brand', 'add-guideline', '--input', '[1]')).toContain('must be a JSON object');
    expect(await refusal('brand', 'add-guideline', '--avoid')).toContain("option '--avoid <text>' argument missing");
    expect(await refusal('brand', 'add-guideline', '--colour', 'red')).toContain("unknown option '--colour'");
  });
});
