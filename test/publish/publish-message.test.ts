import { PublishMessage } from '../../shared/app/publish/publish-message';

/** The publish queue's message: one zod definition (API fan-out, dispatcher, resume steps, the worker's parse). */
describe('PublishMessage', () => {
  const base = { post_id: 'pst_01M87ZGXHAK1YPZZ44SGRTPY6X', platform: 'discord', deferral: 0 };
  const connection = {
    id: 'con_1', account_id: 'acc_1', brand_id: 'brd_1', platform: 'discord', handle: '#news', label: 'Acme · #news (discord)',
    status: 'active', connected_at: '2026-11-24T00:00:00.000Z', credentials_enc: 'l2.abc',
  };

  it('carries the connection the API read', () => {
    expect(PublishMessage.parse({ ...base, connection }).connection).toEqual(connection);
  });

  it('drops a connection snapshot that does not parse (the worker reads the connection) but keeps the message', () => {
    const { label: _l, ...partial } = connection;
    expect(PublishMessage.parse({ ...base, connection: partial })).toEqual({ ...base, v: 1 });
  });

  it('refuses an unknown network, a malformed post id or a deferral out of range', () => {
    expect(PublishMessage.safeParse({ ...base, platform: 'myspace' }).success).toBe(false);
    expect(PublishMessage.safeParse({ ...base, post_id: 'pst_1' }).success).toBe(false);
    expect(PublishMessage.safeParse({ ...base, deferral: 11 }).success).toBe(false);
  });
});
