import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import { E, std } from './errors';

/** The API keys routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const apiKeysRoutes = {
  postKeys: {
    id: 'post-keys', method: 'POST', path: '/api/keys', tag: 'API keys', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Create an API key (secret shown once); 20 a day per account',
    rateLimit: { limit: 20, windowSeconds: 86_400 },
    body: s.CreateKeyBody, optionalBody: true,
    responses: { 200: { description: 'The new key, with its secret (shown once)', schema: s.CreateKeyResponse }, 400: E('Invalid input'), ...std },
  },
  getKeys: {
    id: 'get-keys', method: 'GET', path: '/api/keys', tag: 'API keys', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'List API keys (prefixes only)',
    responses: { 200: { description: 'Keys', schema: s.KeysResponse }, ...std },
  },
  deleteKey: {
    id: 'delete-key', method: 'DELETE', path: '/api/keys/{id}', tag: 'API keys', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Revoke an API key at once',
    params: s.IdParams,
    responses: { 200: { description: 'Revoked', schema: s.RevokeResponse }, 404: E('Not found or already revoked'), ...std },
  },
} as const satisfies Record<string, RouteDef>;
