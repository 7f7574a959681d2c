import { clientIp } from '../../shared/http/client-ip';

const event = (headers: Record<string, string>, sourceIp = '130.176.1.1') => ({ headers, requestContext: { http: { sourceIp } } } as never);
const SECRET = 's'.repeat(40);

describe('clientIp: the address per-IP limits count', () => {
  test('without the edge (no secret configured): API Gateway\'s source address, whatever the headers say', () => {
    expect(clientIp(event({ 'x-edge-viewer-ip': '203.0.113.9', 'x-origin-verify': SECRET }), undefined)).toBe('130.176.1.1');
  });
  test('behind the edge: the viewer address CloudFront forwards, with the secret origin header', () => {
    expect(clientIp(event({ 'x-edge-viewer-ip': '203.0.113.9', 'x-origin-verify': SECRET }), SECRET)).toBe('203.0.113.9');
    expect(clientIp(event({ 'x-edge-viewer-ip': '2001:db8::7', 'x-origin-verify': SECRET }), SECRET)).toBe('2001:db8::7');
  });
  test('a request straight to execute-api cannot choose its address: wrong or missing secret, or a malformed value', () => {
    expect(clientIp(event({ 'x-edge-viewer-ip': '203.0.113.9', 'x-origin-verify': 'guess' }), SECRET)).toBe('130.176.1.1');
    expect(clientIp(event({ 'x-edge-viewer-ip': '203.0.113.9' }), SECRET)).toBe('130.176.1.1');
    expect(clientIp(event({ 'x-edge-viewer-ip': 'evil, 1.2.3.4', 'x-origin-verify': SECRET }), SECRET)).toBe('130.176.1.1');
  });
});
