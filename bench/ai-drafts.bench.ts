import { performance } from 'node:perf_hooks';
import { LocalDrafter } from '../shared/adapters/local/local-drafter';
import { buildJob, networkBrief } from '../shared/app/ai/brief';
import { parseAnswer } from '../shared/app/ai/answer';
import { fitDraft } from '../shared/app/ai/fit';
import { PLATFORM_NAMES } from '../shared/domain/platforms';
import { textProblems } from '../shared/domain/text-length';
import type { DraftView } from '../shared/api/ai-schemas';
import { fmt, percentile, printRows } from './support/stats';
import { networkLimits } from '../shared/networks/descriptor-limits';

/** Each network's text rule, from the registry (its folder's limits.ts). */
const rule = networkLimits().textRule;

/**
 * AI drafts, in process (no HTTP, no table): the local drafter's whole drafting step for all 16 networks (brief →
 * drafter → parse → fit every draft to its network, threads included), per call; then the length validator's
 * throughput (every text of a draft checked against its network, drafts a second).
 */
const CALLS = 200;
const VALIDATE_ROUNDS = 5;

const SENTENCES = [
  'Acme Rockets 2.0 launches today! 🚀',
  'The new engine is 30% lighter and twice as reliable, after two years of tests in the desert.',
  'Pre-orders open now for customers in Europe, the US and Japan (日本のお客様も大歓迎です。).',
  'Our engineers 👩‍🚀👨‍🔧 rebuilt the fuel pump, the guidance computer and the landing legs.',
  'Come and see us at the Berlin space fair next week 🇩🇪, or read more at https://acme.example/rockets/2.',
  'Thank you to everyone who tested the prototypes with us: café crème on us, naïve questions welcome.',
];

/** Prompts from one sentence to three times all of them (20–1,800 characters). */
function prompt(i: number): string {
  const n = 1 + (i % (SENTENCES.length * 3));
  return Array.from({ length: n }, (_, k) => SENTENCES[(i + k) % SENTENCES.length]).join(' ');
}

async function draftAll(drafter: LocalDrafter, i: number): Promise<Record<string, DraftView>> {
  const shape = {};
  const brief = { prompt: prompt(i), networks: PLATFORM_NAMES.map((p) => networkBrief(p, rule(p), shape)), days: 1, link: 'https://acme.example/launch' };
  const reply = await drafter.draft(buildJob(brief));
  const [day] = parseAnswer(reply.text, brief);
  const out: Record<string, DraftView> = {};
  for (const n of brief.networks) out[n.platform] = fitDraft(n, rule(n.platform), day[n.platform], shape);
  return out;
}

export async function run(): Promise<void> {
  console.log('\n## AI drafts (local drafter, 16 networks; length validator)');
  const drafter = new LocalDrafter(networkLimits());
  for (let i = 0; i < 20; i++) await draftAll(drafter, i); // warm-up
  const times: number[] = [];
  const samples: Array<Record<string, DraftView>> = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    samples.push(await draftAll(drafter, i));
    times.push(performance.now() - t);
  }

  let drafts = 0;
  let texts = 0;
  let problems = 0;
  const t = performance.now();
  for (let r = 0; r < VALIDATE_ROUNDS; r++) {
    for (const sample of samples) {
      for (const p of PLATFORM_NAMES) {
        const d = sample[p];
        problems += textProblems(p, rule(p), d).length;
        texts += 1 + (d.thread?.length ?? 0) + (d.title ? 1 : 0);
        drafts++;
      }
    }
  }
  const seconds = (performance.now() - t) / 1000;
  if (problems) throw new Error(`${problems} drafts did not pass the validator`);
  printRows([
    ['drafting calls (16 networks each)', String(CALLS)],
    ['per call p50', `${fmt(percentile(times, 50), 2)} ms`],
    ['per call p95', `${fmt(percentile(times, 95), 2)} ms`],
    ['per call max', `${fmt(Math.max(...times), 2)} ms`],
    ['validator: drafts checked', drafts.toLocaleString('en-US')],
    ['validator: drafts a second', fmt(drafts / seconds, 0)],
    ['validator: texts a second', fmt(texts / seconds, 0)],
  ]);
}
