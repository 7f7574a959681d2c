import * as z from 'zod';
import type { PlatformName } from '../../domain/platforms';
import type { DraftBrief } from '../../ports/ai';

/** The JSON a provider must answer (SYSTEM_INSTRUCTION), checked with zod; unknown fields are dropped. */
const Text = z.string().max(100_000);
export const ModelDraft = z.object({
  text: Text,
  title: z.string().max(1000).nullish(),
  thread: z.array(Text).max(50).nullish(),
  first_comment: z.string().max(10_000).nullish(),
  hashtags: z.array(z.string().max(200)).max(100).nullish(),
});
export type ModelDraft = z.infer<typeof ModelDraft>;

export const ModelAnswer = z.object({
  posts: z.array(z.object({ day: z.number().int().nullish(), drafts: z.record(z.string(), ModelDraft) })).min(1),
});

export class MalformedAnswer extends Error {}

/** The JSON object in a model's text: tolerates code fences or a sentence around it, nothing else. */
function jsonObjectOf(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) throw new MalformedAnswer('the answer holds no JSON object');
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    throw new MalformedAnswer('the answer is not valid JSON');
  }
}

/**
 * The drafts of each day, in day order, for exactly the brief's networks. Throws MalformedAnswer when the JSON is
 * missing or of the wrong shape, a day is missing, or a network has no draft.
 */
export function parseAnswer(text: string, brief: DraftBrief): Array<Record<PlatformName, ModelDraft>> {
  const parsed = ModelAnswer.safeParse(jsonObjectOf(text));
  if (!parsed.success) throw new MalformedAnswer(`the answer does not have the required shape (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  const posts = parsed.data.posts;
  if (posts.length < brief.days) throw new MalformedAnswer(`the answer has ${posts.length} day(s); ${brief.days} were asked`);
  const ordered = posts.some((p) => p.day != null) ? [...posts].sort((a, b) => (a.day ?? 0) - (b.day ?? 0)) : posts;
  return ordered.slice(0, brief.days).map((p, i) => {
    const out = {} as Record<PlatformName, ModelDraft>;
    for (const n of brief.networks) {
      const d = p.drafts[n.platform];
      if (!d || !d.text.trim()) throw new MalformedAnswer(`day ${i + 1} has no draft for ${n.platform}`);
      out[n.platform] = d;
    }
    return out;
  });
}
