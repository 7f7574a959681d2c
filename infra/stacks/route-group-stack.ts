import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { RouteDef } from '../../shared/http/route';
import type { AppFunction } from '../constructs/app-function';
import { addRouteFunctions, deployedRoutes, reserveConcurrency, type ApiStack } from './api-stack';
import { isProd } from './data-stack';

export interface RouteGroupStackProps extends StackProps {
  stage: string;
  api: ApiStack;
  /** The `stack` name of functions/routes.ts entries deployed here. */
  group: string;
  /** Reserved concurrency by route id (0 or absent: none), e.g. the MCP function's, whose function URL bypasses API throttles and WAF. */
  reservedConcurrency?: Record<string, number>;
}

/** The route groups of the route table (routes with a `stack`), each deployed by a RouteGroupStack. */
export const routeGroups = (): string[] => [...new Set(deployedRoutes().flatMap((r) => (r.stack ? [r.stack] : [])))];
export const routesOfGroup = (group: string): RouteDef[] => deployedRoutes().filter((r) => r.stack === group);

/**
 * The functions of one route group on the API stack's HTTP API, with the same environment, grants and defaults as
 * the API stack's own routes (a stack of its own only to stay under CloudFormation's 500 resources per stack).
 */
export class RouteGroupStack extends Stack {
  readonly routeFunctions = new Map<string, AppFunction>();

  constructor(scope: Construct, id: string, props: RouteGroupStackProps) {
    super(scope, id, props);
    addRouteFunctions(this, routesOfGroup(props.group), {
      httpApi: props.api.httpApi, environment: props.api.functionEnvironment, grantTargets: props.api.grantTargets,
      logRemovalPolicy: isProd(props.stage) ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY, functions: this.routeFunctions, logsKey: props.api.logsKey,
    });
    reserveConcurrency(this.routeFunctions, props.reservedConcurrency, `the ${props.group} stack`);
  }
}
