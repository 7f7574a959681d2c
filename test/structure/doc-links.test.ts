/**
 * Every pointer into the docs resolves: markdown links in README.md and docs/*.md (a file that exists, a section
 * anchor that exists in it), and the pointers the code and the docs give in prose — `docs/x.md#anchor`,
 * `docs/x.md, Section` and `docs/x.md "Section"` (error `fix` texts, alarm descriptions, comments).
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export const slug = (heading: string): string => heading.trim().toLowerCase()
  .replace(/[`*_~]/g, (c) => (c === '_' ? '_' : '')).replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function sectionsOf(file: string): { anchors: Set<string>; headings: string[] } {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const anchors = new Set<string>();
  const headings: string[] = [];
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const h = m[1]!;
    headings.push(h.replace(/`/g, ''));
    const base = slug(h);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  return { anchors, headings };
}

const cache = new Map<string, ReturnType<typeof sectionsOf>>();
const sections = (file: string) => { let s = cache.get(file); if (!s) cache.set(file, s = sectionsOf(file)); return s; };

function markdownLinks(file: string): Array<{ target: string; anchor?: string; text: string }> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const out: Array<{ target: string; anchor?: string; text: string }> = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const href = m[1]!;
    if (/^[a-z]+:/i.test(href)) continue; // http(s), mailto
    const [p, anchor] = href.split('#');
    const target = p ? path.posix.normalize(path.posix.join(path.posix.dirname(file), p)) : file;
    out.push({ target, ...(anchor ? { anchor } : {}), text: m[0] });
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(rel);
    return /\.(ts|md)$/.test(e.name) ? [rel] : [];
  });
}

describe('doc links', () => {
  test('markdown links in README.md and docs/*.md name files and sections that exist', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const link of markdownLinks(file)) {
        if (!fs.existsSync(path.join(ROOT, link.target))) { broken.push(`${file}: ${link.text} (no file ${link.target})`); continue; }
        if (link.anchor && link.target.endsWith('.md') && !sections(link.target).anchors.has(link.anchor)) broken.push(`${file}: ${link.text} (no section #${link.anchor} in ${link.target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('pointers in code and docs (docs/x.md#anchor, docs/x.md, Section, docs/x.md "Section") resolve', () => {
    const broken: string[] = [];
    const files = [...DOCS, ...['shared', 'functions', 'infra', 'bin'].flatMap(sourceFiles)];
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/docs\/([a-z-]+\.md)(?:#([a-z0-9-]+)|, ([A-Z][A-Za-z -]*[A-Za-z])|\s"([^"]+)")?/g)) {
        const doc = `docs/${m[1]}`;
        if (!fs.existsSync(path.join(ROOT, doc))) { broken.push(`${file}: ${m[0]} (no file)`); continue; }
        const { anchors, headings } = sections(doc);
        if (m[2] && !m[2].startsWith('$') && !anchors.has(m[2])) broken.push(`${file}: ${m[0]} (no anchor)`);
        const named = m[3] ?? m[4];
        if (named && !headings.some((h) => h.toLowerCase().startsWith(named.toLowerCase()))) broken.push(`${file}: ${m[0]} (no section "${named}")`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('the check sees a broken link', () => {
    expect(sections('docs/operations.md').anchors.has('no-such-section')).toBe(false);
    expect(slug('Security checks (cdk-nag)')).toBe('security-checks-cdk-nag');
    expect(slug('OAuth client registrations (issue 7)')).toBe('oauth-client-registrations-issue-7');
  });
});
