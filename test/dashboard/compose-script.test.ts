import { COUNTING_SOURCE, dashboardScript } from '../../shared/http/dashboard/dashboard-script';
import { measure, type LengthUnit } from '../../shared/domain/text-length';
import { NETWORKS } from '../../shared/networks/network-list';

/** The browser's counts on Compose are the server's: the served counting source against the domain's measure. */
const browserMeasure = new Function(`${COUNTING_SOURCE}\nreturn measure;`)() as (unit: LengthUnit, text: string) => number;

const UNITS = [...new Set(NETWORKS.map((d) => d.text.unit))];
const CORPUS = [
  '', 'Hello world', 'Launch day! 🚀🚀', 'Family: 👨‍👩‍👧‍👦 and flags 🇩🇪🇫🇷', 'Café with e\u0301 and ñ', '日本語のテキストと한국어',
  'See https://example.com/a?b=c, then www.example.org. And example.io!', 'Ping @alice@mastodon.social and @bob',
  'keycap 1️⃣ skin 👍🏽 heart ❤️', 'a'.repeat(300) + ' https://very.long.example.com/' + 'x'.repeat(80),
  '\u2014quotes \u201chi\u201d and primes \u2032', 'mixed 🇯🇵 東京 https://t.co/x.', 'tab\tnew\nline \u0000',
];

describe('the dashboard script counts as the domain does', () => {
  test.each(UNITS)('%s: every text of the corpus', (unit) => {
    expect(CORPUS.map((t) => browserMeasure(unit, t))).toEqual(CORPUS.map((t) => measure(unit, t)));
  });

  test('the module is an ES module with no inline secret and no remote import', () => {
    const src = dashboardScript();
    expect(src).toContain('export { measure }');
    expect(src).not.toMatch(/import\s|https?:\/\/(?!example)/);
  });
});
