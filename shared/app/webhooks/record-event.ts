import type { Deps } from '../deps';
import type { ServiceEvent } from '../../ports/publishing';

/**
 * Records an event and hands it to the account's webhook endpoints: deliveries written, event stored, tries queued
 * (the explicit fan-out step of every use case that emits an event; the fan-out itself is the `fanOut` port).
 */
export async function recordEvent(deps: Pick<Deps, 'events' | 'fanOut'>, event: ServiceEvent): Promise<void> {
  const queue = await deps.fanOut.prepare(event);
  await deps.events.record(event);
  await queue();
}
