/** The items of a comma-separated setting or argument (`a, b,,c`), trimmed, empty ones dropped. */
export function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
