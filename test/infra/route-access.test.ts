/**
 * IAM per route (least privilege): iterating the route table, each route function's role has exactly the
 * table statements its declaration allows (infra/table-access.ts), GET routes write only their rate-limit counters,
 * a due plan change or what they declare, and every open route's table statements carry `dynamodb:LeadingKeys`.
 */
process.env.CDK_VALIDATION = 'false';

import { App, type Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { buildStacks } from '../../bin/app';
import { deployedRoutes } from '../../infra/stacks/api-stack';
import { declarationOf, tableAccessOf, tableStatementsOf, TABLE_DECLARATIONS, TABLE_WRITE_ACTIONS, RATE_LIMIT_COUNTERS, PLAN_SETTLE_ATTRIBUTES } from '../../infra/table-access';
import { routeList } from '../../functions/routes';
import type { RouteDef } from '../../shared/http/route';
import { templateWithNested } from '../support/cdk';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
interface Statement { Action: string | string[]; Condition?: Record<string, Record<string, unknown>>; Resource: unknown }

let templates: Template[];
beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org' } });
  const stacks = buildStacks(app);
  templates = [stacks.api, ...stacks.groups].map((s: Stack) => templateWithNested(s));
});

/** The DynamoDB statements of the role of the function `METHOD /path`. */
function tableStatements(route: RouteDef): Statement[] {
  const description = `${route.method} ${route.path}`;
  const found = templates.flatMap((t) => {
    const fns = t.findResources('AWS::Lambda::Function', { Properties: { Description: description } }) as Resources;
    return Object.values(fns).map((fn) => ({ t, roleId: fn.Properties.Role['Fn::GetAtt'][0] as string }));
  });
  expect(found).toHaveLength(1);
  const { t, roleId } = found[0]!;
  return Object.values(t.findResources('AWS::IAM::Policy') as Resources)
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
    .filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
}

const actionsOf = (s: Statement) => [s.Action].flat().sort();
/** Statements keyed by their condition (the template merges statements with equal conditions and resources). */
function byCondition(statements: Array<{ actions: readonly string[]; condition?: unknown }>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const s of statements) {
    const key = JSON.stringify(s.condition ?? null);
    out[key] = [...new Set([...(out[key] ?? []), ...s.actions])].sort();
  }
  return out;
}
const expectedCondition = (s: { prefixes?: readonly string[]; attributes?: readonly string[] }) => (s.prefixes || s.attributes ? {
  ...(s.prefixes ? { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': s.prefixes.map((p) => `${p}*`) } } : {}),
  ...(s.attributes ? { 'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...s.attributes] } } : {}),
} : undefined);

const tableRoutes = () => deployedRoutes().filter((r) => r.grants.includes('table'));

describe('table permissions per route', () => {
  test('each route function has exactly the table statements of its declaration, on the table and its index only', () => {
    expect(tableRoutes().length).toBeGreaterThan(80);
    for (const route of deployedRoutes()) {
      const actual = tableStatements(route);
      const expected = tableStatementsOf(route);
      expect({ route: route.id, statements: byCondition(actual.map((s) => ({ actions: actionsOf(s), condition: s.Condition }))) })
        .toEqual({ route: route.id, statements: byCondition(expected.map((s) => ({ actions: s.actions, condition: expectedCondition(s) }))) });
      for (const s of actual) {
        // the table and its GSI by name: never "*" or index/*
        expect(JSON.stringify(s.Resource)).not.toMatch(/"\*"|index\/\*/);
        expect(actionsOf(s)).not.toContain('dynamodb:Scan');
      }
    }
  });

  test('GET and HEAD routes have no write action, except their rate-limit counters, a due plan change, or the items they declare', () => {
    const gets = tableRoutes().filter((r) => r.method === 'GET' || r.method === 'HEAD');
    expect(gets.length).toBeGreaterThan(30);
    for (const route of gets) {
      for (const s of tableStatements(route)) {
        const writes = actionsOf(s).filter((a) => (TABLE_WRITE_ACTIONS as readonly string[]).includes(a));
        if (!writes.length) continue;
        const keys = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[] | undefined;
        const attributes = s.Condition?.['ForAllValues:StringEquals']?.['dynamodb:Attributes'];
        const counters = keys?.length === 1 && keys[0] === `${RATE_LIMIT_COUNTERS}*` && writes.join() === 'dynamodb:UpdateItem';
        const planSettle = keys?.join() === 'ACC#*' && attributes !== undefined && JSON.stringify(attributes) === JSON.stringify(PLAN_SETTLE_ATTRIBUTES);
        const declaredWrites = declarationOf(route).writes ?? declarationOf(route).items;
        const declared = tableAccessOf(route) === 'readWrite' && declaredWrites !== undefined
          && JSON.stringify(keys) === JSON.stringify(declaredWrites.map((p) => `${p}*`));
        expect({ route: route.id, writes, keys, allowed: counters || planSettle || declared }).toEqual({ route: route.id, writes, keys, allowed: true });
      }
    }
    // a GET that needs no write at all has none
    expect(tableStatements(gets.find((r) => r.id === 'get-media-file')!).flatMap(actionsOf)).toEqual(['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query']);
  });

  test('every open route with the table grant touches only its declared item types (dynamodb:LeadingKeys on every table statement)', () => {
    const open = tableRoutes().filter((r) => r.auth === 'open');
    expect(open.map((r) => r.id)).toEqual(expect.arrayContaining(['get-media-file', 'get-oauth-callback', 'get-connect-page', 'post-signup-confirm', 'get-review']));
    for (const route of open) {
      expect({ route: route.id, tableItems: (declarationOf(route).items?.length ?? 0) > 0 }).toEqual({ route: route.id, tableItems: true });
      for (const s of tableStatements(route)) {
        const keys = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[] | undefined;
        expect({ route: route.id, keys: keys !== undefined && keys.length > 0 }).toEqual({ route: route.id, keys: true });
        expect(keys!.every((k) => /^[A-Z]+#[a-z-]*#?\*$|^[A-Z]+#[a-z]+#\*$/.test(k))).toBe(true);
      }
    }
    // e.g. the media file route reads media items only; the OAuth callback never touches keys, sessions or posts
    expect(tableStatements(open.find((r) => r.id === 'get-media-file')!)[0]!.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MEDIA#*'] } });
    const callback = JSON.stringify(tableStatements(open.find((r) => r.id === 'get-oauth-callback')!));
    for (const other of ['KEY#', 'SESSION#', 'POST#', 'EMAIL#']) expect(callback).not.toContain(other);
  });

  test('every declaration names a route of the route table', () => {
    const ids = new Set(routeList.map((r) => r.id));
    expect(Object.keys(TABLE_DECLARATIONS).filter((id) => !ids.has(id))).toEqual([]);
  });

  test('the signup confirmation page and the catalog touch no table at all', () => {
    for (const id of ['get-signup-confirm', 'get-plans', 'get-openapi', 'get-platforms']) {
      expect(tableStatements(deployedRoutes().find((r) => r.id === id)!)).toEqual([]);
    }
  });
});
