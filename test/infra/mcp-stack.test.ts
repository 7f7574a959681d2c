/**
 * CDK assertions on the MCP stack (SocialPublishing-<stage>-Mcp): the MCP function with its function URL and routes on
 * the API stack's HTTP API, the OAuth endpoints, and their grants.
 */
process.env.CDK_VALIDATION = 'false';

import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildStacks } from '../../bin/app';
import { routeList, routes } from '../../functions/routes';
import { TOOLS } from '../../functions/mcp/tools';

type Resources = Record<string, { Properties: Record<string, any> }>;

let api: Template;
let apiStack: Template;
beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org' } });
  const stacks = buildStacks(app);
  const mcp = stacks.groups.find((g) => g.stackName === 'SocialPublishing-dev-Mcp')!;
  api = Template.fromStack(mcp);
  apiStack = Template.fromStack(stacks.api);
});

const mcpFunctionId = () => {
  const ids = Object.keys(api.findResources('AWS::Lambda::Function', { Properties: { Description: 'POST /api/mcp' } }));
  expect(ids).toHaveLength(1);
  return ids[0]!;
};

describe('MCP function', () => {
  test('has a function URL (the function authenticates: auth type NONE, buffered) and the McpUrl output', () => {
    const fnId = mcpFunctionId();
    const urls = Object.values(api.findResources('AWS::Lambda::Url') as Resources);
    expect(urls).toHaveLength(1);
    expect(urls[0]!.Properties).toMatchObject({ AuthType: 'NONE', InvokeMode: 'BUFFERED', TargetFunctionArn: { 'Fn::GetAtt': [fnId, 'Arn'] } });
    const outputs = api.findOutputs('McpUrl');
    expect(Object.keys(outputs)).toHaveLength(1);
    expect(JSON.stringify(Object.values(outputs)[0])).toContain('FunctionUrl');
    // the public invoke permission of a NONE function URL, for this function only
    const perms = Object.values(api.findResources('AWS::Lambda::Permission', { Properties: { Action: 'lambda:InvokeFunctionUrl' } }) as Resources);
    expect(perms.map((p) => p.Properties.FunctionName)).toEqual([{ 'Fn::GetAtt': [fnId, 'Arn'] }]);
  });

  test('POST, GET and DELETE /api/mcp on the HTTP API go to the same function', () => {
    const fnId = mcpFunctionId();
    const routeResources = Object.values(api.findResources('AWS::ApiGatewayV2::Route') as Resources)
      .filter((r) => String(r.Properties.RouteKey).endsWith(' /api/mcp'));
    expect(routeResources.map((r) => r.Properties.RouteKey).sort()).toEqual(['DELETE /api/mcp', 'GET /api/mcp', 'OPTIONS /api/mcp', 'POST /api/mcp']);
    const integrations = api.findResources('AWS::ApiGatewayV2::Integration') as Resources;
    for (const r of routeResources) {
      const integrationId = String(r.Properties.Target['Fn::Join'][1][1].Ref);
      expect(integrations[integrationId]!.Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    }
  });

  test('the MCP and OAuth routes are in the Mcp stack, on the API stack\'s HTTP API, and the API stack stays under 500 resources', () => {
    const mcpRoutes = routeList.filter((r) => r.stack === 'Mcp');
    expect(mcpRoutes.map((r) => r.id).sort()).toEqual([
      'get-dashboard-apps', 'get-dashboard-apps-authorize', 'get-oauth-authorization-server', 'get-oauth-protected-resource', 'post-dashboard-app-guardrails', 'post-dashboard-app-revoke',
      'post-dashboard-apps-authorize', 'post-mcp', 'post-oauth-register', 'post-oauth-revoke', 'post-oauth-token',
    ]);
    api.resourceCountIs('AWS::Lambda::Function', mcpRoutes.length);
    const keys = Object.values(api.findResources('AWS::ApiGatewayV2::Route') as Resources).map((r) => r.Properties.RouteKey);
    expect(keys).toContain('GET /.well-known/oauth-protected-resource');
    for (const r of Object.values(api.findResources('AWS::ApiGatewayV2::Route') as Resources)) {
      expect(JSON.stringify(r.Properties.ApiId)).toContain('Fn::ImportValue');
    }
    expect(Object.keys(apiStack.toJSON().Resources).length).toBeLessThan(500);
    expect(Object.keys(api.toJSON().Resources).length).toBeLessThan(500);
  });

  test('least privilege: it is granted exactly what the REST routes of its tools are granted', () => {
    const toolGrants = new Set(TOOLS.flatMap((t) => routeList.find((r) => r.id === t.route?.id)?.grants ?? []));
    expect(new Set(routes.postMcp.grants)).toEqual(toolGrants);
    const roleId = (api.findResources('AWS::Lambda::Function') as Resources)[mcpFunctionId()]!.Properties.Role['Fn::GetAtt'][0];
    const actions = Object.values(api.findResources('AWS::IAM::Policy') as Resources)
      .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap((p) => (p.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((s) => [s.Action].flat()));
    expect(actions.filter((a) => a === '*' || a.endsWith(':*'))).toEqual([]);
    expect(actions.filter((a) => /^s3:/.test(a))).toEqual([]); // no tool reads media objects
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'kms:Decrypt', 'sqs:SendMessage', 'scheduler:CreateSchedule', 'ssm:GetParametersByPath', 'ses:SendEmail']));
  });
});
