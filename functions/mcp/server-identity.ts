import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import { ICONS } from './icons';

/**
 * What the server says about itself at initialize (2025 revisions) and server/discover (2026-07-28): one definition,
 * handed to the SDK's Server (server.ts) and to the answers built without it (fast-answers.ts), so the two cannot
 * drift. No SDK import here: the handler reads these at a cold start before the SDK is loaded.
 */
export const SERVER_INFO = { name: 'social-publishing', title: 'Social publishing', version: '0.2.0', icons: ICONS } as const;

/**
 * Tools, resources (read scope), prompts and argument completions; nothing changes between calls, so no listChanged.
 * A new object each time: a Server may keep and extend the one it is given.
 */
export const serverCapabilities = () => ({
  tools: { listChanged: false }, resources: { listChanged: false, subscribe: false }, prompts: { listChanged: false }, completions: {},
});

/** What the server tells a client at initialize / server/discover: how to use the tools. */
export const SERVER_INSTRUCTIONS = `Publish one post to up to ${PLATFORM_NAMES.length} social networks with post_to_social (one result per network), schedule it with `
  + 'schedule_post, and follow it with get_post_status. Every result is JSON: the first line of the text says what happened, '
  + 'the rest is the data. Connect networks with create_connect_link (a page for the account owner). For media, '
  + 'create_media_upload_link gives a page for a person; get_media_upload then says when the file arrived and gives its '
  + 'media_url. Send an idempotency_key with each publish so that a retry never posts twice. A failure names its fix; '
  + 'explain_error explains any code. Held posts wait for the account owner: no tool approves a post. Resources '
  + '(social://networks, social://brands, social://connections, social://connections/health, social://usage, social://posts/{post_id}) and prompts '
  + '(cross_post_announcement, plan_week, article_to_thread) help plan.';
