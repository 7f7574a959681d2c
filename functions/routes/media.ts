import type { RouteDef } from '../../shared/http/route';
import * as m from '../../shared/api/media-schemas';
import { E, std } from './errors';

/** The Media routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const mediaRoutes = {
  postMediaUploadUrl: {
    id: 'post-media-upload-url', method: 'POST', path: '/api/media/upload-url', tag: 'Media', auth: 'key', scope: 'publish', grants: ['table', 'bucket'],
    summary: 'Start an upload: a presigned PUT bound to the content type and size (at most 50 MB); 60 an hour per account',
    rateLimit: { limit: 60, windowSeconds: 3600 }, body: m.UploadUrlBody,
    responses: { 200: { description: 'PUT the raw bytes to upload_url, then finalize with path', schema: m.UploadUrlResponse }, 400: E('Invalid content type or size'), 413: E('too_large: more than 50 MB'), ...std },
  },
  getMediaFinalize: {
    id: 'get-media-finalize', method: 'GET', path: '/api/media/finalize', tag: 'Media', auth: 'key', scope: 'publish', grants: ['table', 'bucket'],
    summary: 'Finish an upload: checks the stored file (size, type, first bytes) and answers media_url; 404 before the upload',
    query: m.FinalizeQuery,
    responses: {
      200: { description: 'Uploaded: media_url works as video_url, photo_url or media[].url for 30 days', schema: m.FinalizeResponse },
      400: E('upload_mismatch: the stored file is not what was declared (it was deleted)'), 404: E('not_found: not uploaded yet, not yours, or deleted after 30 days'), ...std,
    },
  },
  postMediaUploadLink: {
    id: 'post-media-upload-link', method: 'POST', path: '/api/media/upload-link', tag: 'Media', auth: 'key', scope: 'publish', grants: ['table'],
    summary: 'A hosted upload page for someone without an account (works once, for 1 hour); 30 an hour per account',
    rateLimit: { limit: 30, windowSeconds: 3600 }, body: m.UploadLinkBody, optionalBody: true,
    responses: { 200: { description: 'The page URL and its token', schema: m.UploadLinkResponse }, 400: E('Invalid input'), ...std },
  },
  getMediaUploadLink: {
    id: 'get-media-upload-link', method: 'GET', path: '/api/media/upload-link/{token}', tag: 'Media', auth: 'key', scope: 'read', grants: ['table'],
    summary: "Where an upload link stands (open, uploading, uploaded, expired) and the uploaded file's path",
    params: m.TokenParams,
    responses: { 200: { description: 'Status', schema: m.UploadLinkStatusResponse }, 404: E('not_found'), ...std },
  },
  getMediaUploadPage: {
    id: 'get-media-upload-page', method: 'GET', path: '/upload/{token}', tag: 'Media', auth: 'open', grants: ['table'], presigns: true,
    summary: 'The hosted upload page of an upload link (HTML; no login, only the token)',
    params: m.TokenParams, rateLimit: { limit: 120, windowSeconds: 3600 },
    responses: { 200: { description: 'The page', contentType: 'text/html' }, 404: { description: 'Unknown link (HTML)' }, 410: { description: 'Link used or expired (HTML)' } },
  },
  postMediaUploadLinkUrl: {
    id: 'post-media-upload-link-url', method: 'POST', path: '/api/media/upload-link/{token}/url', tag: 'Media', auth: 'open', grants: ['table', 'bucket'],
    summary: "Called by the upload page: a presigned PUT for the link's account (token only)",
    params: m.TokenParams, body: m.UploadUrlBody, rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: {
      200: { description: 'Upload URL', schema: m.UploadUrlResponse }, 400: E('Invalid or not accepted type'), 404: E('Unknown link'),
      403: E('cross_site_form, form_token_invalid (the page token in X-Form-Token)'),
      410: E('link_used, link_expired'), 413: E('too_large'), 429: std[429],
    },
  },
  postMediaUploadLinkComplete: {
    id: 'post-media-upload-link-complete', method: 'POST', path: '/api/media/upload-link/{token}/complete', tag: 'Media', auth: 'open', grants: ['table', 'bucket'],
    summary: 'Called by the upload page after the PUT: checks the file and closes the link (single use)',
    params: m.TokenParams, body: m.CompleteUploadBody, rateLimit: { limit: 60, windowSeconds: 3600 },
    responses: {
      200: { description: 'Uploaded', schema: m.CompleteUploadResponse }, 400: E('upload_mismatch'), 404: E('Not uploaded yet or unknown'),
      403: E('cross_site_form, form_token_invalid (the page token in X-Form-Token)'),
      410: E('link_expired'), 429: std[429],
    },
  },
  getMediaFile: {
    id: 'get-media-file', method: 'GET', path: '/media/{file}', tag: 'Media', auth: 'open', grants: ['table', 'bucketRead'],
    summary: 'An uploaded file (media_url): 302 to a short-lived storage link; 404 once deleted',
    params: m.MediaFileParams,
    responses: { 302: { description: 'Redirect to the file in storage' }, 404: E('not_found') },
  },
  headMediaFile: {
    id: 'head-media-file', method: 'HEAD', path: '/media/{file}', tag: 'Media', auth: 'open', grants: ['table'],
    summary: "An uploaded file's type and size (for fetchers that check a link with HEAD first)",
    params: m.MediaFileParams,
    responses: { 200: { description: 'Content-Type and Content-Length of the file, no body' }, 404: { description: 'not_found' } },
  },
} as const satisfies Record<string, RouteDef>;
