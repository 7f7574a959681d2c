/**
 * Every alarm of the templates has its runbook in docs/operations.md: a heading naming the alarm (`<stage>` and
 * `<queue>`-style placeholders stand for any part), and the anchor its description links to.
 */
process.env.CDK_VALIDATION = 'false';

import fs from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildStacks } from '../../bin/app';

const guide = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
const runbooks = guide.split('\n## Alarms and runbooks')[1]!.split('\n## ')[0]!;
const anchors = new Set([...guide.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!));

/** The alarm names a runbook heading names: `SocialPublishing-<stage>-a`, then `-b` shorthands of the same prefix. */
function namesOf(heading: string): RegExp[] {
  const spans = [...heading.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const full = spans.filter((s) => s.startsWith('SocialPublishing-'));
  const prefix = 'SocialPublishing-<stage>';
  const names = [...full, ...spans.filter((s) => s.startsWith('-')).map((s) => `${prefix}${s}`)];
  return names.map((n) => new RegExp(`^${n.split(/<[^>]+>/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[a-z0-9_-]+')}$`));
}

const headings = [...runbooks.matchAll(/^### (.+)$/gm)].map((m) => ({ heading: m[1]!, names: namesOf(m[1]!) }));

function alarmsOf(context: Record<string, unknown>): Array<{ name: string; description: string }> {
  const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org', ...context } }));
  return Object.values(Template.fromStack(stacks.observability).findResources('AWS::CloudWatch::Alarm'))
    .map((a) => ({ name: a.Properties.AlarmName as string, description: a.Properties.AlarmDescription as string }));
}

describe.each([['dev', {}], ['prod', { stage: 'prod' }]])('the alarms of %s', (_stage, context) => {
  const alarms = alarmsOf(context);

  test('each alarm has a runbook heading that names it', () => {
    expect(alarms.length).toBeGreaterThan(20);
    const without = alarms.filter((a) => !headings.some((h) => h.names.some((re) => re.test(a.name)))).map((a) => a.name);
    expect(without).toEqual([]);
  });

  test('each alarm\'s description links to a runbook anchor that exists, under the heading that names it', () => {
    for (const a of alarms) {
      const anchor = /operations\.md#([a-z0-9-]+)/.exec(a.description)?.[1];
      expect(anchor && anchors.has(anchor) ? anchor : `${a.name}: ${a.description}`).toBe(anchor);
      const section = runbooks.split(`<a id="${anchor}"></a>`)[1]!.split('\n### ')[1]!.split('\n')[0]!;
      expect(namesOf(section).some((re) => re.test(a.name)) ? a.name : `${a.name} links to #${anchor} ("${section}")`).toBe(a.name);
    }
  });
});

test('a heading\'s names match only what they say', () => {
  const [re] = namesOf('DLQ (`SocialPublishing-<stage>-dlq-<queue>`)');
  expect(re!.test('SocialPublishing-dev-dlq-publish')).toBe(true);
  expect(re!.test('SocialPublishing-dev-api-5xx')).toBe(false);
});
