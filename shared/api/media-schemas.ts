import * as z from 'zod';
import { isSafeDisplayText, UNSAFE_DISPLAY_TEXT } from '../domain/display-text';
import { MEDIA_CONTENT_TYPES } from '../domain/media';

/** Request and response schemas of media uploads and hosted upload links (spec §4; OpenAPI is generated from these). */

const ContentType = z.enum(MEDIA_CONTENT_TYPES).meta({ description: 'One of the accepted image and video types' });

export const UploadUrlBody = z.object({
  content_type: ContentType,
  size_bytes: z.number().int().positive().meta({ description: 'Exact size of the file in bytes; at most 50 MB (52428800), else 413 too_large' }),
}).strict();

export const UploadUrlResponse = z.object({
  upload_url: z.string().meta({ description: 'Presigned PUT; send the raw bytes with exactly the headers below' }),
  path: z.string().meta({ description: 'Pass to GET /api/media/finalize after the PUT' }),
  expires_in: z.number().int().meta({ description: 'Seconds the upload_url stays valid' }),
  method: z.literal('PUT'),
  headers: z.object({ 'content-type': ContentType }),
}).meta({ id: 'UploadUrl' });

export const FinalizeQuery = z.object({ path: z.string().min(1).max(300) });

export const FinalizeResponse = z.object({
  media_url: z.string().meta({ description: 'Use as video_url, photo_url or media[].url in a post; works for 30 days' }),
  bytes: z.number().int(),
  content_type: ContentType,
  kind: z.enum(['image', 'video']),
  expires_at: z.string().meta({ description: 'When the file is deleted (30 days after the upload URL was made)' }),
}).meta({ id: 'FinalizedMedia' });

export const UploadLinkBody = z.object({
  content_type: ContentType.optional().meta({ description: 'Accept only this type on the page' }),
  note: z.string().trim().max(500).refine((v) => isSafeDisplayText(v, true), UNSAFE_DISPLAY_TEXT).optional().meta({ description: 'Plain text shown on the page, e.g. what to upload' }),
}).strict();

export const UploadLinkResponse = z.object({
  url: z.string().meta({ description: 'The hosted page: no login, works once, for 1 hour' }),
  token: z.string(),
  expires_in: z.literal(3600),
  expires_at: z.string(),
  content_type: ContentType.optional(),
}).meta({ id: 'UploadLink' });

export const TokenParams = z.object({ token: z.string().max(200) });

export const UploadLinkStatusResponse = z.object({
  status: z.enum(['open', 'uploading', 'uploaded', 'expired']),
  path: z.string().optional().meta({ description: 'Once the page started an upload; call finalize with it after status uploaded' }),
  content_type: ContentType.optional(),
  bytes: z.number().int().optional(),
  expires_at: z.string(),
  uploaded_at: z.string().optional(),
}).meta({ id: 'UploadLinkStatus' });

export const CompleteUploadBody = z.object({ path: z.string().min(1).max(300) }).strict();
export const CompleteUploadResponse = z.object({ path: z.string(), bytes: z.number().int(), content_type: ContentType });

export const MediaFileParams = z.object({ file: z.string().max(200) });
