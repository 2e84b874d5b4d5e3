/**
 * Text others wrote (a referrer's host, a page path, a query) set inline in Markdown an agent reads: on one line, with
 * every character that could start a link, an image, emphasis, a heading or HTML escaped, so it reads as the text it is.
 */
export function markdownText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_[\]()~|!<>#]/g, '\\$&');
}
