import type { PublishContent } from '../ports/networks';

/** Length of a title taken from the first line of the text when content.title is absent. */
export const DERIVED_TITLE_CHARS = 100;

/**
 * The title of an article (dev.to, Hashnode, WordPress): content.title, else the first non-empty line of the text
 * without leading `#`s, cut to 100 characters.
 */
export function articleTitle(content: PublishContent): string {
  const given = content.title?.trim();
  if (given) return given;
  const first = content.text.split(/\r?\n/).map((l) => l.replace(/^\s*#+\s*/, '').trim()).find((l) => l) ?? '';
  return Array.from(first).slice(0, DERIVED_TITLE_CHARS).join('').trim();
}
