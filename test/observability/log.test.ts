import { captureOutput } from '../support/log-capture';
import { appendLogContext, correlationId, log, withLogContext } from '../../shared/log';

describe('shared/log on Powertools Logger', () => {
  let capture: ReturnType<typeof captureOutput>;
  const before = process.env.LOG_LEVEL;
  beforeEach(() => { process.env.LOG_LEVEL = 'debug'; capture = captureOutput(); });
  afterEach(() => { capture.restore(); process.env.LOG_LEVEL = before; });

  it('redacts secret-named fields and key/secret-shaped values, keeps ids', () => {
    log.info('connect', {
      bot_token: '123:abc-secret', app_password: 'hunter2hunter2', authorization: 'Bearer abcdefghijkl', key_id: 'key_01ABC', token_id: 'tok_1',
      note: 'sent svc_live_' + 'x'.repeat(40) + ' and whsec_' + 'y'.repeat(32), nested: { client_secret: 's3cr3t-value' },
    });
    const [line] = capture.json();
    expect(line).toMatchObject({
      level: 'INFO', message: 'connect', bot_token: '[redacted]', app_password: '[redacted]', authorization: '[redacted]',
      key_id: 'key_01ABC', token_id: 'tok_1', note: 'sent [redacted] and [redacted]', nested: { client_secret: '[redacted]' },
    });
    expect(capture.text()).not.toMatch(/hunter2|abc-secret|s3cr3t|xxxxxxxx|yyyyyyyy/);
  });

  it('keeps the correlation fields of concurrent work apart', async () => {
    const work = (id: string, delay: number) => withLogContext({ correlation_id: id }, async () => {
      await new Promise((r) => setTimeout(r, delay));
      appendLogContext({ post_id: `pst_${id}` });
      await new Promise((r) => setTimeout(r, delay));
      expect(correlationId()).toBe(id);
      log.info('step', { n: id });
    });
    await Promise.all([work('a', 20), work('b', 5), work('c', 10)]);
    log.info('outside');
    const lines = capture.json();
    for (const id of ['a', 'b', 'c']) expect(lines.find((l) => l.n === id)).toMatchObject({ correlation_id: id, post_id: `pst_${id}` });
    expect(lines.find((l) => l.message === 'outside')!.correlation_id).toBeUndefined();
  });

  it('honours LOG_LEVEL (silent writes nothing; warn drops info)', () => {
    process.env.LOG_LEVEL = 'warn';
    log.info('hidden');
    log.warn('shown');
    process.env.LOG_LEVEL = 'silent';
    log.error('hidden too');
    expect(capture.json().map((l) => l.message)).toEqual(['shown']);
  });
});
