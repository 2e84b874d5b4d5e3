
export { failureOf as failure } from '../support/failure.js';

/** Whatever a constructor throws, for settings that must be refused before any request. */
export function thrown(build: () => unknown): unknown {
  try {
    build();
  } catch (error) {
    return error;
  }
  throw new Error('expected the constructor to throw');
}

export const CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface Collected {
  status: number;
  headers: Headers;
  body: string;
}

/** Posts one event to the collect endpoint as a page of `origin` would (text/plain, as sendBeacon sends it). */
export async function collect(
  baseUrl: string,
  body: unknown,
  options: { ua?: string; ip?: string; origin?: string | null; raw?: string } = {},
): Promise<Collected> {
  const headers: Record<string, string> = { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': options.ua ?? CHROME_UA, 'x-forwarded-for': options.ip ?? '203.0.113.1' };
  if (options.origin !== null) headers.origin = options.origin ?? 'https://acme.example';
  const response = await fetch(`${baseUrl}/api/site/collect`, { method: 'POST', headers, body: options.raw ?? JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: await response.text() };
}
