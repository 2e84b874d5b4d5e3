import { BadInputError } from '../errors.js';
import { supportedLocale } from './locales.js';
import { loadBrandRow } from './readBrand.js';
import { profileRecord } from './records.js';
import type { BrandScope } from './scope.js';

export const TONES = ['professional', 'conversational', 'technical', 'friendly', 'journalistic', 'persuasive'] as const;
export type Tone = (typeof TONES)[number];

/** The profile fields a caller may send; each one left out keeps its stored value. */
export interface ProfileChanges {
  tone?: Tone;
  /** `#RRGGBB`, any case. */
  primaryColor?: string;
  secondaryColor?: string;
  defaultLocale?: string;
  flexibleScheduling?: boolean;
  localBusiness?: boolean;
  /** An empty string clears it. */
  serviceArea?: string;
}

function canonicalLocale(value: string): string {
  const tag = supportedLocale(value);
  if (tag === undefined) {
    throw BadInputError.field('defaultLocale', `must be a supported BCP-47 tag such as en, en-US, en-GB, de-DE, fr-FR, es-419 or pt-BR; "${value}" is not supported`);
  }
  return tag;
}

function flag(value: boolean | undefined): number | undefined {
  return value === undefined ? undefined : value ? 1 : 0;
}

/** Colors are stored upper-cased so that the same color always reads back the same way. */
function color(value: string | undefined): string | undefined {
  return value?.toUpperCase();
}

export async function updateBrandProfile(scope: BrandScope, changes: ProfileChanges) {
  const { db, workspaceId } = scope;
  const defaultLocale = changes.defaultLocale === undefined ? undefined : canonicalLocale(changes.defaultLocale);
  if (Object.values(changes).some((value) => value !== undefined)) {
    // kysely leaves columns whose value is undefined out of the SET list, so unsent fields keep their value.
    await db
      .updateTable('brands')
      .set({
        tone: changes.tone,
        primary_color: color(changes.primaryColor),
        secondary_color: color(changes.secondaryColor),
        default_locale: defaultLocale,
        flexible_scheduling: flag(changes.flexibleScheduling),
        local_business: flag(changes.localBusiness),
        service_area: changes.serviceArea === undefined ? undefined : changes.serviceArea || null,
        updated_at: scope.clock.now(),
      })
      .where('workspace_id', '=', workspaceId)
      .execute();
  }
  return { profile: profileRecord(await loadBrandRow(db, workspaceId)) };
}
