import { createTelegramAdapter } from '../../shared/networks/telegram';
import type { PublishContent } from '../../shared/ports/networks';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { testContext } from './context';

/** Telegram reply_to: reply_parameters.message_id within the connected chat; alt text is not a Telegram field. */

const fake = new TelegramFake();
let adapter: ReturnType<typeof createTelegramAdapter>;
const channel = () => ({ bot_token: fake.token, chat_id: '-1001234567890', chat_type: 'channel', chat_username: 'acmenews' });
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Update', media: [], thread: [], send_key: 'k', ...over });

beforeAll(async () => { adapter = createTelegramAdapter({ apiBase: await fake.start() }); });
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

it.each([['a public link', 'https://t.me/acmenews/12'], ['a private link', 'https://t.me/c/1234567890/12'], ['a message id', '12']])('reply_to as %s → reply_parameters.message_id', async (_, ref) => {
  const out = await adapter.publish(content({ options: { reply_to: ref } }), testContext(channel()).ctx);
  expect(out).toMatchObject({ ok: true, status: 'published', url: 'https://t.me/acmenews/41' });
  expect(fake.requests[0].json).toEqual({ chat_id: '-1001234567890', text: 'Update', parse_mode: 'HTML', reply_parameters: { message_id: 12 } });
});

it('a photo reply carries reply_parameters too; alt text is not sent (Telegram has no field for it)', async () => {
  await adapter.publish(content({ media: [{ url: 'https://cdn.example.com/a.jpg', kind: 'image', alt: 'not a Telegram field' }], options: { reply_to: '7' } }), testContext(channel()).ctx);
  expect(fake.requests[0].json).toEqual({ chat_id: '-1001234567890', photo: 'https://cdn.example.com/a.jpg', caption: 'Update', parse_mode: 'HTML', reply_parameters: { message_id: 7 } });
});

it('a link to another chat → rejected before any call', async () => {
  expect(await adapter.publish(content({ options: { reply_to: 'https://t.me/otherchannel/5' } }), testContext(channel()).ctx))
    .toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('another chat') });
  expect(await adapter.publish(content({ options: { reply_to: 'https://t.me/c/999/5' } }), testContext(channel()).ctx))
    .toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('another chat') });
  expect(fake.requests).toHaveLength(0);
});

it('a message that does not exist → rejected with Telegram\'s words', async () => {
  const out = await adapter.publish(content({ options: { reply_to: '999' } }), testContext(channel()).ctx);
  expect(out).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('message to be replied not found') });
});
