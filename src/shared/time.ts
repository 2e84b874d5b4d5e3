export const DAY_MS = 86_400_000;

/** Instants are stored as epoch milliseconds and answered as ISO 8601 text; a missing one stays null. */
export function toIso(epochMs: number): string;
export function toIso(epochMs: number | null): string | null;
export function toIso(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}

export const utcDay = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;
export const isoDate = (day: number) => new Date(day).toISOString().slice(0, 10);
