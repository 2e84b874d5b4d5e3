import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { readBrand } from './readBrand.js';

type Brand = Awaited<ReturnType<typeof readBrand>>;

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

/** "German (Austria)" for `de-AT`: models follow a language name more reliably than a bare tag. */
export function languageName(locale: string): string {
  return LANGUAGE_NAMES.of(locale) ?? locale;
}

function line(label: string, value: string | null | undefined): string[] {
  return value ? [`${label}: ${value}`] : [];
}

function list(label: string, values: readonly string[]): string[] {
  return values.length === 0 ? [] : [`${label}: ${values.join('; ')}`];
}

function section(title: string, lines: string[]): string[] {
  return lines.length === 0 ? [] : ['', `## ${title}`, ...lines];
}

function identity(brand: Brand): string[] {
  const { identity: id, profile } = brand;
  return [
    `Brand: ${id.name}`,
    `Website: ${id.websiteUrl}`,
    ...line('Industry', [id.industry, id.subIndustry].filter(Boolean).join(' / ')),
    ...line('What the brand offers', id.productDescription),
    ...list('The brand is also called', id.brandAliases),
    ...(profile.localBusiness ? [`A local business${profile.serviceArea ? ` serving ${profile.serviceArea}` : ''}: write for readers in that area.`] : []),
  ];
}

function voice(brand: Brand): string[] {
  const { profile, identity: id } = brand;
  return [
    ...line('Tone', profile.tone),
    `Language: write everything in ${languageName(profile.defaultLocale)} (${profile.defaultLocale}).`,
    ...list('Match the style of these pages', id.styleReferenceUrls),
  ];
}

/** Only switched-on guidelines: one that is switched off is kept on the brand but must no longer steer the writing. */
function guidelines(brand: Brand): string[] {
  return brand.guidelines.filter((g) => g.on).map((g) => `- (${g.type}) Avoid: ${g.avoid} — Instead: ${g.instead}`);
}

function products(brand: Brand): string[] {
  return brand.products.flatMap((p) => [
    `- ${p.name} (${p.category.replace('_', ' ')}): ${p.description}`,
    ...line('  Pricing', p.pricing),
    ...list('  Features', p.features),
    ...list('  What sets it apart', p.usps),
    ...line('  Page', p.url),
  ]);
}

function buyers(brand: Brand): string[] {
  return brand.buyerProfiles.flatMap((b) => [
    `- ${b.title} (industry: ${b.industry}${b.companySize ? `; company size: ${b.companySize}` : ''})`,
    ...list('  Pain points', b.painPoints),
    ...list('  Buying triggers', b.buyingTriggers),
    ...list('  Objections', b.objections),
    ...list('  Where they look for information', b.preferredChannels),
    ...list(
      '  Demographics',
      Object.entries(b.demographics)
        .filter(([, value]) => value !== '')
        .map(([key, value]) => `${key} ${value}`),
    ),
  ]);
}

function authors(brand: Brand): string[] {
  return brand.identity.authors.map((a) => `- ${a.name}${a.bio ? `: ${a.bio}` : ''}`);
}

/**
 * The brand memory every writer prompt starts with: who the brand is, how it sounds, what it must avoid, what it
 * sells and to whom. Read fresh for each prompt, so an edit (a guideline switched off) steers the very next one.
 */
export async function brandMemoryPrompt(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const brand = await readBrand(db, workspaceId);
  return [
    '# Brand memory',
    'You write for the brand below. Follow its voice and guidelines; state facts about its products only as given here.',
    ...section('Identity', identity(brand)),
    ...section('Voice', voice(brand)),
    ...section('Writing guidelines (always follow)', guidelines(brand)),
    ...section('Products', products(brand)),
    ...section('Buyer profiles (the readers)', buyers(brand)),
    ...section('Authors', authors(brand)),
  ].join('\n');
}
