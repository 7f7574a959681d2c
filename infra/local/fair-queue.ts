import fs from 'node:fs';
import path from 'node:path';

/**
 * SQS fair queues, locally: the embedded fauxqs serves a standard queue first in, first out, so one account's
 * 10,000 messages would hold back another's single post. SQS (since July 2025) serves a standard queue fairly when
 * messages carry a MessageGroupId (the tenant; a message without one is a tenant of its own). The stand-in gets the
 * same behaviour: each receive takes messages from the groups in turn, the least recently served group first.
 */

/** The round-robin order between groups of one queue: which group was served when. */
export class FairRotation {
  private served = new Map<string, number>();
  private seq = 0;

  /**
   * The indexes (into `groups`, arrival order) of the next `count` messages to deliver: one per group in turn,
   * groups never served (or not served for the longest) first, each group's messages in arrival order.
   */
  pick(groups: readonly string[], count: number): number[] {
    const byGroup = new Map<string, number[]>();
    groups.forEach((g, i) => { const list = byGroup.get(g); if (list) list.push(i); else byGroup.set(g, [i]); });
    const order = [...byGroup.keys()].sort((a, b) => (this.served.get(a) ?? -1) - (this.served.get(b) ?? -1) || byGroup.get(a)![0] - byGroup.get(b)![0]);
    const picked: number[] = [];
    const cursor = new Map<string, number>();
    while (picked.length < count) {
      let took = false;
      for (const g of order) {
        if (picked.length >= count) break;
        const at = cursor.get(g) ?? 0;
        const list = byGroup.get(g)!;
        if (at >= list.length) continue;
        picked.push(list[at]);
        cursor.set(g, at + 1);
        this.served.set(g, ++this.seq);
        took = true;
      }
      if (!took) break;
    }
    // only the groups still waiting need remembering (a group that comes back later counts as quiet)
    for (const g of [...this.served.keys()]) if (!byGroup.has(g)) this.served.delete(g);
    return picked;
  }
}

interface FauxqsMessage { messageId: string; body: string; messageGroupId?: string }
interface FauxqsQueue {
  messages: FauxqsMessage[];
  isFifo(): boolean;
  enqueue(msg: FauxqsMessage): void;
  dequeue(maxCount: number, ...rest: unknown[]): unknown[];
  fairRotation?: FairRotation;
}

let patched = false;
/**
 * fauxqs keeps MessageGroupId on FIFO queues only: the groups of a send are noted here by body (`noteGroups`, from
 * the request) and given to the messages as they are enqueued.
 */
const groupsByBody = new Map<string, string[]>();

/** Notes the MessageGroupId of each entry of a SendMessage / SendMessageBatch request body (JSON protocol). */
export function noteGroups(requestBody: unknown): void {
  if (typeof requestBody !== 'object' || requestBody === null) return;
  const r = requestBody as { Entries?: Array<{ MessageBody?: string; MessageGroupId?: string }>; MessageBody?: string; MessageGroupId?: string };
  for (const e of Array.isArray(r.Entries) ? r.Entries : [r]) {
    if (typeof e.MessageBody !== 'string' || typeof e.MessageGroupId !== 'string') continue;
    const list = groupsByBody.get(e.MessageBody);
    if (list) list.push(e.MessageGroupId); else groupsByBody.set(e.MessageBody, [e.MessageGroupId]);
  }
}

function takeGroup(body: string): string | undefined {
  const list = groupsByBody.get(body);
  if (!list) return undefined;
  const group = list.shift();
  if (list.length === 0) groupsByBody.delete(body);
  return group;
}

/** Makes fauxqs's standard queues fair (once per process): each receive's messages are moved to the front in turn. */
export async function makeFauxqsFair(): Promise<void> {
  if (patched) return;
  const file = (require.resolve.paths('fauxqs') ?? []).map((dir) => path.join(dir, 'fauxqs', 'dist', 'sqs', 'sqsStore.js')).find((f) => fs.existsSync(f));
  if (!file) throw new Error('fauxqs not found: cannot make its queues fair');
  const mod = (await import(file)) as { SqsQueue: { prototype: FauxqsQueue } };
  const proto = mod.SqsQueue.prototype;
  const enqueue = proto.enqueue;
  proto.enqueue = function groupedEnqueue(this: FauxqsQueue, msg: FauxqsMessage) {
    if (!this.isFifo() && msg.messageGroupId === undefined) {
      const group = takeGroup(msg.body);
      if (group !== undefined) msg.messageGroupId = group;
    }
    return enqueue.call(this, msg);
  };
  const dequeue = proto.dequeue;
  proto.dequeue = function fairDequeue(this: FauxqsQueue, maxCount: number, ...rest: unknown[]) {
    if (!this.isFifo() && this.messages.length > 1) {
      const count = Math.min(maxCount, this.messages.length, 10);
      this.fairRotation ??= new FairRotation();
      const picked = this.fairRotation.pick(this.messages.map((m) => m.messageGroupId ?? `message:${m.messageId}`), count);
      const chosen = new Set(picked);
      this.messages = [...picked.map((i) => this.messages[i]), ...this.messages.filter((_, i) => !chosen.has(i))];
    }
    return dequeue.call(this, maxCount, ...rest);
  };
  patched = true;
}
