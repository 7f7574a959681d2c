import { platform } from '../../domain/platforms';
import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { articleStatus } from '../article-status';
import { articleTitle } from '../article-title';
import type { TextRule } from '../../domain/text-length';

/* What Hashnode takes, checked before sending (the API side's pre-check and the adapter share it): the request the
 * adapter would send must fit Hashnode's body limit, so its shape is defined here. */

/** Hashnode's GraphQL server takes request bodies up to 100 KB (102,400 bytes); this caps the article size. */
export const HASHNODE_MAX_BODY_BYTES = 100 * 1024;

/** Its text rule (THE length validator's unit and limits for hashnode; sources: shared/reference/networks.md): no title limit known. */
export const TEXT_RULE: TextRule = { unit: 'utf8_bytes', limit: HASHNODE_MAX_BODY_BYTES, thread: false, firstComment: false, title: { unit: 'code_points' } };

export const OBJECT_ID = /^[a-f0-9]{24}$/i;
export const PUBLISH_MUTATION = 'mutation PublishPost($input: PublishPostInput!) { publishPost(input: $input) { post { id slug url } } }';
export const DRAFT_MUTATION = 'mutation CreateDraft($input: CreateDraftInput!) { createDraft(input: $input) { draft { id } } }';
export type CoverField = 'coverImageOptions' | 'coverImage';

export function requestBody(content: PublishContent, publicationId: string, draft: boolean, cover: CoverField = 'coverImageOptions') {
  const image = content.media.find((m) => m.kind === 'image');
  const coverInput = !image ? {} : cover === 'coverImage' && !draft ? { coverImage: image.url } : { coverImageOptions: { coverImageURL: image.url } };
  const input = { publicationId, title: articleTitle(content), contentMarkdown: content.text, tags: [], ...coverInput };
  return { query: draft ? DRAFT_MUTATION : PUBLISH_MUTATION, variables: { input } };
}

export function checkHashnode(content: PublishContent, credentials: Record<string, string>): Failure | undefined {
  const max = platform('hashnode').max_media;
  if (content.media.length > max) return rejected(`Hashnode takes at most ${max} image (the cover); got ${content.media.length} media items`, 'bad_media');
  if (content.media.some((m) => m.kind !== 'image')) return rejected('Hashnode takes an image as the cover; video is not supported', 'bad_media');
  if (!articleTitle(content)) return rejected('Hashnode needs a title: give a title or a text whose first line can be used');
  const pub = OBJECT_ID.test(credentials.publication ?? '') ? credentials.publication : '0'.repeat(24);
  const draft = articleStatus(credentials.default_status) === 'draft';
  const bytes = Buffer.byteLength(JSON.stringify(requestBody(content, pub, draft)), 'utf8');
  if (bytes > HASHNODE_MAX_BODY_BYTES) {
    return rejected(`Hashnode accepts requests up to ${HASHNODE_MAX_BODY_BYTES} bytes (100 KB); this article makes a ${bytes}-byte request`, 'text_too_long');
  }
  return undefined;
}
