import { countryOf } from '../engines/locale.js';

/**
 * DataForSEO's location codes are Google Ads geo-target ids; a country's id is 2000 plus its ISO 3166-1 numeric code.
 * The countries of the supported content locales (src/brand/locales.ts), each language's main country included.
 */
const LOCATION_CODES: Record<string, number> = {
  AR: 2032, AT: 2040, AU: 2036, BE: 2056, BR: 2076, CA: 2124, CH: 2756, CN: 2156, CO: 2170, CZ: 2203,
  DE: 2276, DK: 2208, EG: 2818, ES: 2724, FI: 2246, FR: 2250, GB: 2826, GR: 2300, HU: 2348, ID: 2360,
  IE: 2372, IL: 2376, IN: 2356, IT: 2380, JP: 2392, KR: 2410, MX: 2484, MY: 2458, NL: 2528, NO: 2578,
  NZ: 2554, PL: 2616, PT: 2620, RO: 2642, RU: 2643, SE: 2752, TH: 2764, TR: 2792, TW: 2158,
  UA: 2804, US: 2840, VN: 2704, ZA: 2710,
};

const UNITED_STATES = 2840;

export interface SearchLocation {
  location_code: number;
  language_code: string;
}

/** The locale's country, else the likeliest one (`en` searches the United States, `zh-Hant` Taiwan, `es-419` Spain). */
function countryFor(locale: string): string | undefined {
  const parsed = new Intl.Locale(locale);
  return countryOf(locale) ?? countryOf(parsed.maximize().toString()) ?? countryOf(new Intl.Locale(parsed.language).maximize().toString());
}

/**
 * Where and in which language a SERP is fetched for a brand's locale. DataForSEO names languages by their two-letter
 * code, except Chinese, which it splits into zh-CN (simplified) and zh-TW (traditional). A country outside the table
 * is searched from the United States.
 */
export function searchLocation(locale: string): SearchLocation {
  const parsed = new Intl.Locale(locale);
  const country = countryFor(locale);
  const traditional = parsed.script === 'Hant' || ['TW', 'HK', 'MO'].includes(parsed.region ?? '');
  return {
    location_code: (country === undefined ? undefined : LOCATION_CODES[country]) ?? UNITED_STATES,
    language_code: parsed.language === 'zh' ? (traditional ? 'zh-TW' : 'zh-CN') : parsed.language,
  };
}
