/**
 * The `default_status` credential of the blog networks (dev.to, Hashnode): empty, `published` or `publish` publish
 * the article, `draft` keeps it a draft; anything else is undefined (the adapter refuses it).
 */
export function articleStatus(value: string | undefined): 'published' | 'draft' | undefined {
  const v = (value ?? '').trim().toLowerCase();
  if (!v || v === 'published' || v === 'publish') return 'published';
  if (v === 'draft') return 'draft';
  return undefined;
}
