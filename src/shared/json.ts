/** Lists and objects are stored as JSON text in both dialects. */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

export function toJson(value: unknown): string {
  return JSON.stringify(value);
}
