/** Instants are stored as epoch milliseconds and answered as ISO 8601 text; a missing one stays null. */
export function toIso(epochMs: number): string;
export function toIso(epochMs: number | null): string | null;
export function toIso(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}
