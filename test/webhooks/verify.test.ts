import {
  checkWebhook, computeSignature, parseSignatureHeader, signatureHeader, verifyWebhook, WebhookVerificationError,
} from '../../shared/webhooks/verify';
import { independentSign, independentVerify } from './independent';

const SECRET = 'whsec_test0123456789abcdefghijklmnop';
const BODY = '{"id":"evt_01","type":"post.published","created_at":"2026-11-21T12:00:00.000Z","data":{"platform":"telegram","text":"héllo ✓"}}';
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const T = Math.floor(NOW / 1000);

describe('signature scheme', () => {
  it('matches an independent WebCrypto implementation, byte for byte (UTF-8 body)', async () => {
    expect(computeSignature(SECRET, T, BODY)).toBe(await independentSign(SECRET, T, BODY));
    const header = signatureHeader([SECRET], T, BODY);
    expect(header).toBe(`t=${T},v1=${await independentSign(SECRET, T, BODY)}`);
    expect(await independentVerify(BODY, header, SECRET, T)).toBe(true);
  });

  it('verifies a header built by the independent implementation', async () => {
    const header = `t=${T},v1=${await independentSign(SECRET, T, BODY)}`;
    expect(verifyWebhook(BODY, header, SECRET, { now: NOW })).toMatchObject({ id: 'evt_01', type: 'post.published' });
    expect(verifyWebhook(Buffer.from(BODY), header, SECRET, { now: NOW }).data).toMatchObject({ text: 'héllo ✓' });
  });

  it('carries one v1 per secret; any match is accepted (rotation)', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], T, BODY);
    expect(parseSignatureHeader(header)?.signatures).toHaveLength(2);
    expect(checkWebhook(BODY, header, 'whsec_new', { now: NOW }).ok).toBe(true);
    expect(checkWebhook(BODY, header, 'whsec_old', { now: NOW }).ok).toBe(true);
    expect(checkWebhook(BODY, header, 'whsec_other', { now: NOW })).toEqual({ ok: false, reason: 'no_matching_signature' });
  });
});

describe('verifyWebhook rejects', () => {
  const header = signatureHeader([SECRET], T, BODY);
  const reason = (fn: () => unknown) => {
    try { fn(); } catch (err) { return (err as WebhookVerificationError).reason; }
    return 'accepted';
  };

  it('a body changed by one byte, or re-serialised JSON', () => {
    expect(reason(() => verifyWebhook(BODY.replace('telegram', 'Telegram'), header, SECRET, { now: NOW }))).toBe('no_matching_signature');
    expect(reason(() => verifyWebhook(JSON.stringify(JSON.parse(BODY), null, 1), header, SECRET, { now: NOW }))).toBe('no_matching_signature');
  });

  it('the wrong secret', () => {
    expect(reason(() => verifyWebhook(BODY, header, SECRET + 'x', { now: NOW }))).toBe('no_matching_signature');
  });

  it('timestamps more than 300 s old or ahead; exactly 300 s is accepted', () => {
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: NOW + 301_000 }))).toBe('timestamp_out_of_tolerance');
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: NOW - 301_000 }))).toBe('timestamp_out_of_tolerance');
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: NOW + 300_000 }))).toBe('accepted');
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: NOW + 30_000, toleranceSeconds: 10 }))).toBe('timestamp_out_of_tolerance');
  });

  it('a stale timestamp even with a valid signature for it (replay)', () => {
    const old = signatureHeader([SECRET], T - 3600, BODY);
    expect(reason(() => verifyWebhook(BODY, old, SECRET, { now: NOW }))).toBe('timestamp_out_of_tolerance');
  });

  it('missing and malformed headers', () => {
    expect(reason(() => verifyWebhook(BODY, undefined, SECRET))).toBe('missing_header');
    expect(reason(() => verifyWebhook(BODY, '', SECRET))).toBe('missing_header');
    for (const bad of ['v1=abc', `t=${T}`, `t=abc,v1=${'0'.repeat(64)}`, `t=${T},v1=xyz`, 'garbage', `t=${T},t=${T},v1=${'0'.repeat(64)}`]) {
      expect(reason(() => verifyWebhook(BODY, bad, SECRET, { now: NOW }))).toBe('malformed_header');
    }
  });

  it('ignores unknown schemes next to a valid v1', () => {
    const withV0 = `${header},v0=${'f'.repeat(64)}`;
    expect(reason(() => verifyWebhook(BODY, withV0, SECRET, { now: NOW }))).toBe('accepted');
  });
});
