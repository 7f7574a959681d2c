import type { Actor } from '../auth';
import type { PlatformName } from '../../domain/platforms';

/** How a post is published (source, waiting, actor, approval), and the message each network's worker receives. */

export interface PublishOptions {
  source: 'api' | 'schedule';
  schedule_id?: string;
  /** Wait for the workers' results (POST /api/post); false answers right after fan-out. */
  wait: boolean;
  /** Who publishes (API key or AI app): its guardrails apply (issue 16). Absent: no actor guardrails. */
  actor?: Actor;
  /** Publishing a post that was held and is now approved: its reserved post id (which holds the lock already). */
  approval?: { id: string; post_id: string };
}

export interface PublishMessage {
  post_id: string;
  platform: PlatformName;
  /** Deferral number this message carries (0 for the first send). */
  deferral: number;
  /** Until when someone waits for the answer (ms); a network wait that fits is served inside it. */
  respond_by?: number;
  /** A 'processing' network's next step (async media): the worker calls adapter.resume for step `step`. */
  resume?: boolean;
  step?: number;
}
