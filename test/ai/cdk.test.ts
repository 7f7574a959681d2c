/**
 * CDK assertions for AI drafts: POST /api/generate and POST /api/week may call bedrock:InvokeModel on the configured
 * model only, and no other function may call Bedrock at all. Synthesised without bundling or template validation.
 */
process.env.CDK_VALIDATION = 'false';

import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { templateWithNested } from '../support/cdk';
import { buildStacks } from '../../bin/app';
import { routes } from '../../functions/routes';
import { DEFAULT_BEDROCK_MODEL_ID } from '../../shared/config';

type Resource = { Type: string; Properties: Record<string, any> };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

function apiTemplate(context: Record<string, unknown> = {}): Template {
  const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org', ...context } }));
  return templateWithNested(stacks.api);
}

function statementsOf(t: Template, description: string): Statement[] {
  const fns = Object.values(t.findResources('AWS::Lambda::Function', { Properties: { Description: description } }) as Record<string, Resource>);
  expect(fns).toHaveLength(1);
  const roleId = fns[0]!.Properties.Role['Fn::GetAtt'][0] as string;
  return Object.values(t.findResources('AWS::IAM::Policy') as Record<string, Resource>)
    .filter((p) => (p.Properties.Roles as Array<{ Ref: string }>).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const bedrock = (t: Template, description: string) => statementsOf(t, description).filter((s) => actions(s).some((a) => a.startsWith('bedrock:')));
const modelArn = (id: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':bedrock:', { Ref: 'AWS::Region' }, `::foundation-model/${id}`]] });

describe('AI drafts in the CDK stacks', () => {
  const api = apiTemplate();

  it.each([routes.postGenerate, routes.postWeek])('$method $path: bedrock:InvokeModel on the configured model only', (route) => {
    expect(bedrock(api, `${route.method} ${route.path}`)).toEqual([
      { Effect: 'Allow', Action: 'bedrock:InvokeModel', Resource: modelArn(DEFAULT_BEDROCK_MODEL_ID) },
    ]);
  });

  it('no other function may call Bedrock', () => {
    const fns = api.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    const others = Object.values(fns).map((f) => f.Properties.Description as string)
      .filter((d) => d !== 'POST /api/generate' && d !== 'POST /api/week');
    expect(others.length).toBeGreaterThan(40);
    for (const d of others) expect({ d, bedrock: bedrock(api, d) }).toEqual({ d, bedrock: [] });
  });

  it('-c bedrockModelId sets the model the functions use and the one they may invoke', () => {
    const t = apiTemplate({ bedrockModelId: 'anthropic.claude-3-haiku-20240307-v1:0' });
    expect(bedrock(t, 'POST /api/generate')[0]!.Resource).toEqual(modelArn('anthropic.claude-3-haiku-20240307-v1:0'));
    const fn = Object.values(t.findResources('AWS::Lambda::Function', { Properties: { Description: 'POST /api/generate' } }) as Record<string, Resource>)[0]!;
    expect(fn.Properties.Environment.Variables.BEDROCK_MODEL_ID).toBe('anthropic.claude-3-haiku-20240307-v1:0');
    expect(() => apiTemplate({ bedrockModelId: 'bad model*' })).toThrow(/Invalid bedrockModelId/);
  });
});
