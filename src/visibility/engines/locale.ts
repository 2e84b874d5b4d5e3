import { languageName } from '../../brand/brandMemory.js';

/** The two-letter country of a locale (`de-AT` gives `AT`; `es-419` and `en` give none), for providers that localise search by country. */
export function countryOf(locale: string): string | undefined {
  try {
    const region = new Intl.Locale(locale).region;
    return region !== undefined && /^[A-Z]{2}$/.test(region) ? region : undefined;
  } catch {
    return undefined;
  }
}

/** The system line every engine gets: the brand's locale, since a tracked query is asked as that brand's buyers ask it. */
export function localeInstruction(locale: string): string {
  return `The user's locale is ${locale}: answer in ${languageName(locale)}.`;
}
