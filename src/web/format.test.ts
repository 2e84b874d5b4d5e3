import { describe, expect, it } from 'vitest';
import { isTimeZone } from '../workspace/settings.js';
import { dayIn, formatDay, formatNumber, formatPercent, formatTime, wallTimeToIso, wallTimeValue } from './format.js';

describe('one display of times and numbers', () => {
  it('shows an instant in the workspace time zone with the exact ISO time on hover', () => {
    const instant = Date.parse('2026-11-27T23:30:00Z');
    expect(formatTime(instant, 'UTC').value).toBe('<time datetime="2026-11-27T23:30:00.000Z" title="2026-11-27T23:30:00.000Z">27 Nov 2026, 23:30</time>');
    expect(formatTime(instant, 'Europe/Berlin').value).toContain('>28 Nov 2026, 00:30</time>');
    expect(formatTime('2026-11-27T23:30:00.000Z', 'America/New_York').value).toContain('>27 Nov 2026, 18:30</time>');
    expect(formatTime(null, 'UTC').value).toBe('—');
  });

  it('keeps a calendar day a day, whatever the time zone', () => {
    expect(formatTime('2026-03-01', 'Pacific/Honolulu').value).toBe('<time datetime="2026-03-01" title="2026-03-01">1 Mar 2026</time>');
    expect(formatDay(undefined).value).toBe('—');
    expect(dayIn(Date.parse('2026-11-27T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-11-28');
  });

  it('groups thousands and rounds the same way everywhere', () => {
    expect(formatNumber(156000)).toBe('156,000');
    expect(formatNumber(12.345, 2)).toBe('12.35');
    expect(formatNumber(null)).toBe('—');
    expect(formatPercent(41.26)).toBe('41.3%');
    expect(formatPercent(0.5, { fraction: true })).toBe('50%');
  });

  it('reads a datetime-local value in the workspace time zone, and writes one back', () => {
    expect(wallTimeToIso('2026-12-01T09:00', 'Europe/Berlin')).toBe('2026-12-01T08:00:00.000Z');
    expect(wallTimeToIso('2026-07-01T09:00', 'Europe/Berlin')).toBe('2026-07-01T07:00:00.000Z');
    expect(wallTimeToIso('2026-12-01T09:00:30', 'UTC')).toBe('2026-12-01T09:00:30.000Z');
    expect(wallTimeToIso('2026-12-01T09:00:00Z', 'Europe/Berlin')).toBeUndefined();
    expect(wallTimeValue('2026-12-01T08:00:00.000Z', 'Europe/Berlin')).toBe('2026-12-01T09:00');
    expect(wallTimeValue(Date.parse('2026-11-29T15:30:00Z'), 'Pacific/Auckland')).toBe('2026-11-30T04:30');
  });

  it('knows the IANA time zone names', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
