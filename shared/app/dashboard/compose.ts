import type { z } from 'zod';
import { DateTime } from 'luxon';
import type { Deps } from '../deps';
import type { Account, Brand } from '../../ports/store';
import type { ComposeForm } from '../../api/dashboard-schemas';
import { PLATFORM_NAMES, type PlatformName } from '../../domain/platforms';
import { BadRequestError, PlanFeatureError } from '../../domain/errors';
import { PLANS } from '../../domain/plans';
import { validatePost, type PostRequest } from '../publish/request';
import { publishPost, type PublishPostDeps } from '../publish/create-post';
import { validatePublish, type ValidateAnswer, type ValidatePublishDeps } from '../validate/validate';
import { createSchedule, type ScheduleRowsDeps } from '../schedule/create';
import { listMedia, uploadLinkMedia, type MediaView } from '../media/library';
import { createUploadLink } from '../media/upload-links';

/** How many of the newest uploads the page offers to attach. */
export const COMPOSE_LIBRARY_SIZE = 12;

type LibraryDeps = Pick<Deps, 'uploads' | 'clock' | 'settings' | 'counters'>;
export type ComposePageDeps = Pick<Deps, 'brands' | 'publishContext'> & LibraryDeps;
export type ComposeActionDeps = ComposePageDeps & PublishPostDeps & ValidatePublishDeps & ScheduleRowsDeps;

export type ComposeFormValues = z.infer<typeof ComposeForm>;

/** One brand as the page offers it: its connected (active) networks, in the network table's order. */
export interface ComposeBrand {
  brand: Brand;
  networks: Array<{ platform: PlatformName; handle: string; status: 'active' | 'reauth_required' }>;
}

/**
 * The Compose page's data: the account's brands, each with the networks connected to it (only those can be picked),
 * the chosen brand (the asked one, else the first with a connection, else the first), and the newest uploads.
 */
export async function composePage(deps: ComposePageDeps, account: Account, brandId?: string) {
  const [context, library] = await Promise.all([
    deps.publishContext.load(account.id),
    listMedia(deps, account.id, { limit: COMPOSE_LIBRARY_SIZE }),
  ]);
  const brands: ComposeBrand[] = context.brands.map((brand) => ({
    brand,
    networks: PLATFORM_NAMES.flatMap((platform) => context.connections.filter((c) => c.brand_id === brand.id && c.platform === platform)
      .map((c) => ({ platform, handle: c.handle, status: c.status }))),
  }));
  const chosen = brands.find((b) => b.brand.id === brandId) ?? brands.find((b) => b.networks.length > 0) ?? brands[0];
  return { brands, chosen, library: library.media, canApprove: PLANS[account.plan].approvals };
}
export type ComposePage = Awaited<ReturnType<typeof composePage>>;

/** What one press of a Compose button did (the page renders it). */
export type ComposeOutcome =
  | { kind: 'checked'; answer: ValidateAnswer }
  | { kind: 'published'; post_id: string; results: Array<{ platform: string; ok: boolean; status?: string; code?: string; error?: string; url?: string }> }
  | { kind: 'held'; approval_id: string; post_id: string }
  | { kind: 'scheduled'; schedule_id: string; run_at: string }
  | { kind: 'upload_link'; url: string; token: string; expires_at: string };

/**
 * The media of the form: the picked uploads, a pasted link, and the file of the page's upload link once it arrived.
 * An upload link whose file has not arrived yet is refused (400 upload_pending) rather than dropped.
 */
async function mediaOf(deps: LibraryDeps, account: Account, form: ComposeFormValues, library: MediaView[]) {
  const media: Array<{ url: string; type?: 'image' | 'video' }> = [];
  for (const url of form.media ?? []) media.push({ url, ...kindOf(library, url) });
  if (form.media_url) media.push({ url: form.media_url });
  if (form.upload_token) {
    const link = await uploadLinkMedia(deps, account.id, form.upload_token);
    if (!link.media) {
      throw new BadRequestError(link.status === 'expired'
        ? 'The upload link expired before a file arrived: make a new one'
        : 'The file of the upload link has not arrived yet: upload it on the link\'s page, then press the button again', { code: 'upload_pending' });
    }
    if (!media.some((m) => m.url === link.media!.media_url)) media.push({ url: link.media.media_url, type: link.media.kind });
  }
  return media;
}

const kindOf = (library: MediaView[], url: string) => {
  const item = library.find((m) => m.media_url === url);
  return item ? { type: item.kind } : {};
};

/** The form as the REST body of POST /api/post (the same schema and checks as the API). */
export function postRequestOf(form: ComposeFormValues, media: Array<{ url: string; type?: 'image' | 'video' }>): PostRequest {
  return {
    platforms: form.platforms ?? [], brand_id: form.brand_id,
    ...(form.text !== undefined && form.text !== '' ? { text: form.text } : {}),
    ...(form.title ? { title: form.title } : {}),
    ...(media.length ? { media } : {}),
  };
}

/**
 * The form's run_at as POST /api/schedule takes it: `next_slot`, or the picked local date and time read in the
 * brand's time zone (a datetime-local field has no offset) as ISO 8601 with the zone's offset.
 */
export function runAtOf(form: Pick<ComposeFormValues, 'run_at' | 'next_slot'>, timezone: string): string | undefined {
  if (form.next_slot === 'on') return 'next_slot';
  if (!form.run_at) return undefined;
  const at = DateTime.fromISO(form.run_at, { zone: timezone });
  if (!at.isValid) throw new BadRequestError('The date and time to publish is not valid: pick one as YYYY-MM-DDTHH:MM', { code: 'invalid_run_at' });
  return at.toISO({ suppressMilliseconds: true })!;
}

/**
 * One Compose button (session and CSRF already checked), through the same use cases as the REST routes:
 * - check: validatePublish (POST /api/validate), with run_at when a time is picked;
 * - publish: publishPost (POST /api/post), waiting for the results as the API does;
 * - schedule: createSchedule (POST /api/schedule);
 * - approval: publishPost held for review whatever the rules (paid plans: approvals are a paid feature);
 * - upload_link: a hosted upload link (POST /api/media/upload-link) whose file the next press attaches.
 * A refusal is thrown as the API would answer it; the page shows it with the form kept.
 */
export async function composeAction(deps: ComposeActionDeps, account: Account, form: ComposeFormValues): Promise<ComposeOutcome> {
  if (form.action === 'upload_link') {
    const link = await createUploadLink(deps, account.id, { note: 'Compose' });
    return { kind: 'upload_link', url: link.url, token: link.token, expires_at: link.expires_at };
  }
  const page = await composePage(deps, account, form.brand_id);
  const brand = page.brands.find((b) => b.brand.id === form.brand_id);
  if (!brand) throw new BadRequestError('Pick one of your brands', { code: 'brand_not_found' });
  if (!form.platforms?.length) throw new BadRequestError('Pick at least one network', { code: 'invalid_request' });
  const body = postRequestOf(form, await mediaOf(deps, account, form, page.library));
  switch (form.action) {
    case 'check': {
      const runAt = runAtOf(form, brand.brand.timezone);
      return { kind: 'checked', answer: await validatePublish(deps, account, { ...body, ...(runAt ? { run_at: runAt } : {}) }) };
    }
    case 'schedule': {
      const runAt = runAtOf(form, brand.brand.timezone);
      if (!runAt) throw new BadRequestError('Pick a date and time, or the next free slot, to schedule', { code: 'invalid_run_at' });
      const s = await createSchedule(deps, account, { ...body, run_at: runAt });
      return { kind: 'scheduled', schedule_id: s.schedule_id, run_at: s.run_at };
    }
    case 'publish':
    case 'approval': {
      if (form.action === 'approval' && !PLANS[account.plan].approvals) {
        throw new PlanFeatureError('Approvals are part of every paid plan', { code: 'plan_feature' });
      }
      const res = await publishPost(deps, account, validatePost(body, deps.networkLimits), { source: 'api', wait: true, requestApproval: form.action === 'approval' });
      if ('status' in res) return { kind: 'held', approval_id: res.approval_id, post_id: res.post_id };
      return { kind: 'published', post_id: res.post_id, results: res.results };
    }
  }
}
