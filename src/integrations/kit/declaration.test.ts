import { describe, expect, it } from 'vitest';
import {
  declareProvider,
  httpUrl,
  nameList,
  notConfigured,
  priceAt,
  readRequestsPerMinute,
  readTogether,
  readValue,
  refuseWithout,
  settingsPattern,
  wholeNumber,
} from './declaration.js';

const EXAMPLE = declareProvider({
  id: 'example',
  family: 'serp',
  label: 'The example provider',
  turnedOnBy: ['EXAMPLE_LOGIN', 'EXAMPLE_PASSWORD'],
  settings: [
    { names: ['EXAMPLE_LOGIN', 'EXAMPLE_PASSWORD'], default: '—', meaning: 'The account', secrets: ['EXAMPLE_PASSWORD'] },
    { names: ['EXAMPLE_RPM'], default: '`60`', meaning: 'Requests a minute' },
  ],
  limits: { requestsPerMinute: { setting: 'EXAMPLE_RPM', default: 60 }, prices: { 'api.example.com': { usdPerCall: 0.01, basis: 'one cent a call' } } },
  read: () => undefined,
});

describe('provider declarations', () => {
  it('reads a group set together: all of it, none of it, or refuses naming the group', () => {
    const pair = { names: ['A_ID', 'A_SECRET'] };
    expect(readTogether({}, pair)).toBeUndefined();
    expect(readTogether({ A_ID: '', A_SECRET: '' }, pair)).toBeUndefined();
    expect(readTogether({ A_ID: 'id', A_SECRET: 'secret' }, pair)).toEqual(['id', 'secret']);
    expect(() => readTogether({ A_SECRET: 'secret' }, pair)).toThrow(/^A_ID and A_SECRET: set both, or neither$/);
    const three = { names: ['B_URL', 'B_LOGIN', 'B_PASSWORD'], note: '(then C_* serves)' };
    expect(() => readTogether({ B_LOGIN: 'me' }, three)).toThrow(/^B_URL, B_LOGIN and B_PASSWORD: set all three, or none \(then C_\* serves\)$/);
  });

  it('names the missing setting of a pair when the group asks for that wording', () => {
    const pair = { names: ['C_USER', 'C_PASSWORD'], wording: 'missing' } as const;
    expect(() => readTogether({ C_USER: 'me' }, pair)).toThrow(/^C_PASSWORD: set C_USER and C_PASSWORD together, or neither$/);
    expect(() => readTogether({ C_PASSWORD: 'pw' }, pair)).toThrow(/^C_USER: set C_USER and C_PASSWORD together, or neither$/);
  });

  it('refuses a setting that means nothing without another', () => {
    expect(() => refuseWithout({ D_URL: 'https://d' }, 'D_URL', 'D_KEY')).toThrow(/^D_URL: set D_KEY too, or neither$/);
    expect(() => refuseWithout({ D_URL: 'https://d', D_KEY: 'k' }, 'D_URL', 'D_KEY')).not.toThrow();
    expect(() => refuseWithout({ D_KEY: 'k' }, 'D_URL', 'D_KEY')).not.toThrow();
  });

  it('applies value rules, naming the setting and quoting the value it refuses', () => {
    expect(readValue({ E_URL: 'https://e.example/v1//' }, 'E_URL', httpUrl)).toBe('https://e.example/v1');
    expect(readValue({}, 'E_URL', httpUrl)).toBeUndefined();
    expect(readValue({ E_URL: '' }, 'E_URL', httpUrl, 'https://fallback.example/')).toBe('https://fallback.example');
    expect(() => readValue({ E_URL: 'ftp://e.example' }, 'E_URL', httpUrl)).toThrow('E_URL: must be an absolute http(s) URL, got "ftp://e.example"');
    expect(() => readValue({ E_URL: 'e.example' }, 'E_URL', httpUrl)).toThrow('E_URL: must be an absolute http(s) URL, got "e.example"');
    expect(readValue({ E_ROWS: '5' }, 'E_ROWS', wholeNumber(1, 10))).toBe(5);
    expect(() => readValue({ E_ROWS: '11' }, 'E_ROWS', wholeNumber(1, 10))).toThrow('E_ROWS: must be a whole number from 1 to 10, got "11"');
    expect(() => readValue({ E_ROWS: '2.5' }, 'E_ROWS', wholeNumber(1, 10))).toThrow('E_ROWS: must be a whole number from 1 to 10, got "2.5"');
  });

  it('reads the requests a minute from its setting, else the declared default', () => {
    const limit = EXAMPLE.limits.requestsPerMinute;
    expect(readRequestsPerMinute({}, limit)).toBe(60);
    expect(readRequestsPerMinute({ EXAMPLE_RPM: '1000' }, limit)).toBe(1000);
    expect(() => readRequestsPerMinute({ EXAMPLE_RPM: '0' }, limit)).toThrow('EXAMPLE_RPM: must be a whole number of requests per minute from 1 to 100000, got "0"');
  });

  it('says what turns a provider on, from its declaration', () => {
    expect(nameList(['A'])).toBe('A');
    expect(nameList(['A', 'B'])).toBe('A and B');
    expect(nameList(['A', 'B', 'C'])).toBe('A, B and C');
    expect(notConfigured(EXAMPLE)).toBe('The example provider is not configured: the operator must set EXAMPLE_LOGIN and EXAMPLE_PASSWORD');
    expect(notConfigured(EXAMPLE, ' on this server')).toBe('The example provider is not configured on this server: the operator must set EXAMPLE_LOGIN and EXAMPLE_PASSWORD');
    expect(settingsPattern(EXAMPLE)).toBe('EXAMPLE_*');
  });

  it('knows a price only at the endpoint it was published for', () => {
    expect(priceAt(EXAMPLE, 'https://api.example.com/v3')).toEqual({ usdPerCall: 0.01, basis: 'one cent a call' });
    expect(priceAt(EXAMPLE, 'http://127.0.0.1:9000')).toBeUndefined();
  });
});
