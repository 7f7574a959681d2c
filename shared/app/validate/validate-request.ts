import * as z from 'zod';
import { PostRequestSchema } from '../publish/request';
import { RunAt } from '../schedule/request';

/**
 * POST /api/validate: exactly the body of POST /api/post, or of POST /api/schedule (with run_at), plus check_media.
 */
export const ValidateRequestSchema = PostRequestSchema.extend({
  run_at: RunAt.optional().meta({ description: 'Validate as POST /api/schedule would take it (ISO 8601 with an offset, or next_slot)' }),
  check_media: z.boolean().optional().meta({ description: 'Also fetch each media link (through the address guard) to learn its real type and size; without it only what needs no download is checked' }),
}).meta({ id: 'ValidateRequest' });
export type ValidateRequest = z.infer<typeof ValidateRequestSchema>;
