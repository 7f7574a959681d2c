import { checkUrl, isPublicAddress, parseHostToIp, type CheckUrlOptions, type HostLookup } from '../../shared/net/address-guard';
import { UnsafeTargetError, type UnsafeTargetReason } from '../../shared/ports/media-gateway';
import { parseConfig } from '../../shared/config';

/** Injected resolver: no real DNS in tests (the machine has no Internet). */
const DNS: Record<string, string[]> = {
  'loopback.example': ['127.0.0.1'],
  'mixed.example': ['93.184.216.34', '10.0.0.7'],
  'mixed6.example': ['2606:4700::1111', 'fd00::5'],
  'metadata.example': ['169.254.169.254'],
  'mapped.example': ['::ffff:192.168.0.1'],
  'public.example': ['93.184.216.34', '2606:4700::1111'],
  'empty.example': [],
};
const lookup: HostLookup = async (host) => {
  const found = DNS[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};
const strict = { allowPrivate: false, lookup };

async function refusal(raw: string, opts: CheckUrlOptions = strict): Promise<UnsafeTargetError> {
  try {
    await checkUrl(raw, opts);
  } catch (err) {
    if (err instanceof UnsafeTargetError) return err;
    throw err;
  }
  throw new Error(`${raw} was accepted`);
}

describe('checkUrl refuses unsafe targets', () => {
  const cases: Array<[string, UnsafeTargetReason]> = [
    ['https://2130706433/', 'private_address'], // decimal loopback
    ['https://0177.0.0.1/', 'private_address'], // octal loopback
    ['https://0x7f000001/', 'private_address'], // hex loopback
    ['https://0x7f.1/', 'private_address'],
    ['https://127.1/', 'private_address'], // short form
    ['https://127.0.0.1/', 'private_address'],
    ['https://[::1]/', 'private_address'],
    ['https://[::ffff:127.0.0.1]/', 'private_address'],
    ['https://[::ffff:7f00:1]/', 'private_address'],
    ['https://[::ffff:169.254.169.254]/latest/meta-data', 'private_address'],
    ['https://[64:ff9b::a00:1]/', 'private_address'], // NAT64 of 10.0.0.1
    ['https://[2002:c0a8:101::1]/', 'private_address'], // 6to4 of 192.168.1.1
    ['https://[::127.0.0.1]/', 'private_address'], // IPv4-compatible
    ['https://169.254.169.254/latest/meta-data/', 'private_address'],
    ['https://10.0.0.1/', 'private_address'],
    ['https://172.16.0.1/', 'private_address'],
    ['https://172.31.255.255/', 'private_address'],
    ['https://192.168.1.1/', 'private_address'],
    ['https://100.64.0.1/', 'private_address'],
    ['https://[fc00::1]/', 'private_address'],
    ['https://[fd12::1]/', 'private_address'],
    ['https://[fe80::1]/', 'private_address'],
    ['https://[2001:db8::1]/', 'private_address'],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'private_address'], // Teredo
    ['https://0.0.0.0/', 'private_address'],
    ['https://[::]/', 'private_address'],
    ['https://224.0.0.1/', 'private_address'],
    ['https://255.255.255.255/', 'private_address'],
    ['https://198.18.0.1/', 'private_address'],
    ['https://192.0.2.10/', 'private_address'],
    ['https://localhost/', 'private_address'],
    ['https://loopback.example/', 'private_address'], // name → 127.0.0.1
    ['https://mixed.example/', 'private_address'], // one public, one private address
    ['https://mixed6.example/', 'private_address'],
    ['https://metadata.example/', 'private_address'],
    ['https://mapped.example/', 'private_address'],
    ['http://93.184.216.34/', 'scheme'], // http to a public host
    ['http://public.example/', 'scheme'],
    ['ftp://public.example/file.png', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['https://user:pass@public.example/', 'credentials_in_url'],
    ['https://token@public.example/', 'credentials_in_url'],
    ['not a url', 'invalid_url'],
    ['https://', 'invalid_url'],
    ['https://nowhere.example/', 'unresolvable'],
    ['https://empty.example/', 'unresolvable'],
  ];

  test('the table holds at least 24 unsafe URLs', () => {
    expect(cases.length).toBeGreaterThanOrEqual(24);
  });

  test.each(cases)('%s → %s', async (raw, reason) => {
    const err = await refusal(raw);
    expect(err.reason).toBe(reason);
    expect(err.message).not.toContain('user:pass');
  });

  test('messages never carry the query string', async () => {
    const err = await refusal('https://10.0.0.1/x?token=SECRET');
    expect(err.message).not.toContain('SECRET');
  });

  test('localhost (also with a trailing dot) is refused without a DNS query', async () => {
    expect((await refusal('https://localhost./', { allowPrivate: false })).reason).toBe('private_address');
    expect((await refusal('https://api.localhost/', { allowPrivate: false })).reason).toBe('private_address');
  });
});

describe('checkUrl accepts public targets', () => {
  test('a public IPv4 literal', async () => {
    const { url, addresses } = await checkUrl('https://93.184.216.34/a.png', strict);
    expect(url.hostname).toBe('93.184.216.34');
    expect(addresses).toEqual(['93.184.216.34']);
  });

  test('a public IPv6 literal', async () => {
    expect((await checkUrl('https://[2606:4700::1111]/', strict)).addresses).toEqual(['2606:4700::1111']);
  });

  test('a name resolving only to public addresses', async () => {
    const checked = await checkUrl('https://public.example/media/a.png?sig=1', strict);
    expect(checked.addresses).toEqual(['93.184.216.34', '2606:4700::1111']);
    expect(checked.url.pathname).toBe('/media/a.png');
  });

  test('a public IPv4-mapped address is judged by its IPv4', async () => {
    expect((await checkUrl('https://[::ffff:93.184.216.34]/', strict)).addresses).toEqual(['::ffff:5db8:d822']);
  });

  test('http is allowed when requireHttps is false', async () => {
    await expect(checkUrl('http://public.example/', { ...strict, requireHttps: false })).resolves.toBeDefined();
    expect((await refusal('http://127.0.0.1/', { ...strict, requireHttps: false })).reason).toBe('private_address');
  });
});

describe('checkUrl with allowPrivate', () => {
  const local = { allowPrivate: true, lookup: async (): Promise<string[]> => { throw new Error('no lookup expected'); } };

  test('accepts http://127.0.0.1:8080/', async () => {
    const { url, addresses } = await checkUrl('http://127.0.0.1:8080/', local);
    expect(url.port).toBe('8080');
    expect(addresses).toEqual(['127.0.0.1']);
  });

  test('accepts a private name without resolving it', async () => {
    expect((await checkUrl('http://loopback.example/', local)).addresses).toEqual([]);
  });

  test('still refuses other schemes and non-URLs', async () => {
    expect((await refusal('ftp://127.0.0.1/', local)).reason).toBe('scheme');
    expect((await refusal('::', local)).reason).toBe('invalid_url');
  });
});

describe('isPublicAddress', () => {
  test.each([
    '127.0.0.1', '127.255.255.254', '0.0.0.0', '0.1.2.3', '10.1.2.3', '172.16.0.0', '172.31.255.255', '192.168.0.1',
    '169.254.169.254', '100.64.0.1', '100.127.255.255', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
    '198.18.0.1', '198.19.255.255', '192.0.2.1', '198.51.100.1', '203.0.113.1', '192.0.0.8',
    '::1', '::', 'fc00::1', 'fdff::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'ff02::1', '2001:db8::1', '2001::1',
    '::ffff:10.0.0.1', '::ffff:a00:1', '::ffff:0:10.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::',
    '2002:a9fe:a9fe::1', '::10.0.0.1', '3fff::1', 'not-an-ip', '', '[::1]',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  test.each([
    '93.184.216.34', '8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.0', '100.63.255.255', '100.128.0.0',
    '198.17.255.255', '198.20.0.0', '223.255.255.255', '2606:4700::1111', '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '[2606:4700::1111]',
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('parseHostToIp', () => {
  test.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:127.0.0.1'],
    ['93.184.216.34', '93.184.216.34'],
  ])('%s → %s', (host, ip) => {
    expect(parseHostToIp(host)).toBe(ip);
  });

  test.each(['example.com', 'localhost', '', 'a/b', 'user@127.0.0.1', '1.2.3.4.5'])('%s is not an IP', (host) => {
    expect(parseHostToIp(host)).toBeUndefined();
  });

  test('WHATWG URL already normalises the tricky IPv4 forms', () => {
    for (const raw of ['http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://127.1/']) {
      expect(new URL(raw).hostname).toBe('127.0.0.1');
    }
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });
});

describe('ALLOW_PRIVATE_TARGETS (shared/config.ts)', () => {
  test.each([['1', true], ['true', true], ['0', false], ['false', false], [undefined, false]])(
    'ALLOW_PRIVATE_TARGETS=%s → %s', (value, expected) => {
      expect(parseConfig({ ALLOW_PRIVATE_TARGETS: value }).ALLOW_PRIVATE_TARGETS).toBe(expected);
    });

  test('any other value stops the configuration with the variable named', () => {
    expect(() => parseConfig({ ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(/ALLOW_PRIVATE_TARGETS/);
  });
});
