/**
 * The supported registry of content locales (BCP-47): the languages and regions articles are written for.
 * Tags are matched case-insensitively and stored in canonical form (`en-us` is stored as `en-US`).
 */
export const SUPPORTED_LOCALES = [
  'en', 'en-US', 'en-GB', 'en-AU', 'en-CA', 'en-IE', 'en-IN', 'en-NZ', 'en-ZA',
  'de', 'de-DE', 'de-AT', 'de-CH',
  'fr', 'fr-FR', 'fr-BE', 'fr-CA', 'fr-CH',
  'es', 'es-ES', 'es-MX', 'es-AR', 'es-CO', 'es-419',
  'it', 'it-IT', 'pt', 'pt-BR', 'pt-PT', 'nl', 'nl-NL', 'nl-BE',
  'sv', 'sv-SE', 'da', 'da-DK', 'nb', 'nb-NO', 'fi', 'fi-FI', 'pl', 'pl-PL', 'cs', 'cs-CZ',
  'ro', 'ro-RO', 'hu', 'hu-HU', 'el', 'el-GR', 'tr', 'tr-TR', 'uk', 'uk-UA', 'ru', 'ru-RU',
  'ja', 'ja-JP', 'ko', 'ko-KR', 'zh', 'zh-CN', 'zh-TW', 'zh-Hans', 'zh-Hant',
  'ar', 'he', 'he-IL', 'hi', 'hi-IN', 'id', 'id-ID', 'ms', 'ms-MY', 'th', 'th-TH', 'vi', 'vi-VN',
] as const;

export const DEFAULT_LOCALE = 'en';

const BY_LOWER_CASE = new Map<string, string>(SUPPORTED_LOCALES.map((tag) => [tag.toLowerCase(), tag]));

/** The canonical supported tag for `value`, or undefined when it is not in the registry. */
export function supportedLocale(value: string): string | undefined {
  return BY_LOWER_CASE.get(value.trim().toLowerCase());
}
