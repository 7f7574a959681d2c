import * as z from 'zod';

/** Hashnode's configuration keys (merged into the service's configuration schema, shared/config.ts): its GraphQL host (a loopback fake in tests). */
export const CONFIG_KEYS = {
  HASHNODE_API_BASE: z.string().url().default('https://gql.hashnode.com'),
};
