import { startTestTable, testDeps, type DepsOverrides } from './deps';
import { signup, confirmSignup } from '../../shared/app/signup';
import { authenticate } from '../../shared/app/auth';
import { connect } from '../../shared/app/connections';
import { createBrand } from '../../shared/app/brands';
import { createTelegramAdapter } from '../../shared/networks/telegram';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import type { Deps } from '../../shared/app/deps';
import type { PlanName } from '../../shared/domain/plans';
import type { Account } from '../../shared/ports/store';

/**
 * A publishing world for use-case tests: the embedded DynamoDB, a Telegram and a Discord fake, and deps whose
 * queue delivers each message in the background as the worker would.
 */
export async function publishingWorld() {
  const { table, stop } = await startTestTable();
  const telegram = new TelegramFake();
  const discord = new DiscordFake();
  await Promise.all([telegram.start(), discord.start()]);
  const t = testDeps(table, (chosen) => ({ networks: { ...chosen.networks, telegram: createTelegramAdapter({ apiBase: telegram.url }) } }));
  t.queue.worker = t.deps;
  /** Deps like these with more members replaced; the queue's background deliveries use them from now on. */
  const rebuild = (more: DepsOverrides): Deps => (t.queue.worker = t.rebuild(more));
  let n = 0;
  const newAccount = async (plan: PlanName = 'free'): Promise<Account> => {
    const email = `user${++n}-${Date.now()}@example.com`;
    await signup(t.deps, { email, ip: `198.51.100.${n % 250}` });
    const link = t.mailer.sent.filter((m) => m.to === email).at(-1)!.links[0];
    const { api_key } = await confirmSignup(t.deps, new URL(link).searchParams.get('token')!);
    if (plan !== 'free') await t.deps.accounts.setPlan((await authenticate(t.deps, `Bearer ${api_key}`)).account.id, plan);
    return (await authenticate(t.deps, `Bearer ${api_key}`)).account;
  };
  const connectTelegram = (deps: Deps, account: Account, brand_id?: string) =>
    connect(deps, account, { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' }, brand_id });
  const connectDiscord = (deps: Deps, account: Account, brand_id?: string) =>
    connect(deps, account, { platform: 'discord', credentials: { webhook_url: discord.webhookUrl }, brand_id });
  /** A new account on `plan` with Discord connected. */
  const discordAccount = async (plan: PlanName = 'pro'): Promise<Account> => {
    const account = await newAccount(plan);
    await connectDiscord(t.deps, account);
    return account;
  };
  return {
    ...t, rebuild, table, telegram, discord, newAccount, connectTelegram, connectDiscord, discordAccount, createBrand,
    /** Sends to the Telegram fake, counting only posts (not verification calls). */
    telegramSends: () => telegram.methods.filter((m) => m.startsWith('send')).length,
    stop: async () => { await t.queue.drain(); await Promise.all([telegram.stop(), discord.stop()]); await stop(); },
  };
}
