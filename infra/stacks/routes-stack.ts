/**
 * The functions and routes of one route group (see `routeGroupStacks` in infra/app.ts), attached to the stage's
 * one HTTP API. The route table drives it: one function, one integration and one route per definition.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { LambdaFunction } from '../constructs/lambda-function.ts';
import { preflightRoutesOf } from '../../shared/platform/http/cors.ts';
import type { RouteDef } from '../../shared/routes/index.ts';
import { addRouteFunction, type RouteTarget } from './route-function.ts';

export interface RoutesStackProps extends StackProps, RouteTarget {
  readonly routes: readonly RouteDef[];
}

export class RoutesStack extends Stack {
  /** The function of each route, by route name. */
  readonly functions: ReadonlyMap<string, LambdaFunction>;

  constructor(scope: Construct, id: string, props: RoutesStackProps) {
    super(scope, id, props);
    const functions = new Map<string, LambdaFunction>();
    for (const route of props.routes) functions.set(route.name, addRouteFunction(this, props, route));
    // The CORS preflight of each CORS face here: one OPTIONS route over its paths, one small function without table access.
    for (const preflight of preflightRoutesOf(props.routes)) {
      functions.set(preflight.name, addRouteFunction(this, props, { ...preflight, table: 'none' }));
    }
    this.functions = functions;
  }
}
