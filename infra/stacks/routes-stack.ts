/**
 * The functions and routes of one route group ('system', 'merchants', 'dashboard'), attached to the stage's
 * one HTTP API. The route table drives it: one function, one integration and one route per definition.
 */
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config.ts';
import { LambdaFunction, pascalCase } from '../constructs/lambda-function.ts';
import { preflightRoutesOf } from '../../shared/http/cors.ts';
import { defaultRouteTimeoutSeconds, type RouteDef } from '../../shared/routes/index.ts';
import { routeTimeout } from './timeouts.ts';

export interface RoutesStackProps extends StackProps {
  readonly config: StageConfig;
  readonly httpApi: IHttpApi;
  readonly table: ITable;
  readonly webhookSigningKey: ISecret;
  readonly cardFingerprintKey: ISecret;
  readonly routes: readonly RouteDef[];
}

export class RoutesStack extends Stack {
  /** The function of each route, by route name. */
  readonly functions: ReadonlyMap<string, LambdaFunction>;

  constructor(scope: Construct, id: string, props: RoutesStackProps) {
    super(scope, id, props);
    const functions = new Map<string, LambdaFunction>();

    for (const route of props.routes) {
      const id = pascalCase(route.name);
      const fn = new LambdaFunction(this, id, {
        config: props.config,
        name: route.name,
        entry: route.handler,
        timeout: routeTimeout(route),
        description: `${route.method} ${route.path}: ${route.summary}`.slice(0, 256),
        table: props.table,
        tableAccess: route.table,
        ...(route.signsWebhooks ? { webhookSigningKey: props.webhookSigningKey } : {}),
        ...(route.fingerprintsCards ? { cardFingerprintKey: props.cardFingerprintKey } : {}),
      });
      new HttpRoute(this, `${id}Route`, {
        httpApi: props.httpApi,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${id}Integration`, fn.function),
      });
      functions.set(route.name, fn);
    }
    // The CORS preflight of the checkout face: one OPTIONS route over its paths, one small function without table access.
    for (const preflight of preflightRoutesOf(props.routes)) {
      const id = pascalCase(preflight.name);
      const fn = new LambdaFunction(this, id, {
        config: props.config, name: preflight.name, entry: preflight.handler, timeout: Duration.seconds(defaultRouteTimeoutSeconds),
        description: `${preflight.method} ${preflight.path}: ${preflight.summary}`, table: props.table, tableAccess: 'none',
      });
      new HttpRoute(this, `${id}Route`, {
        httpApi: props.httpApi,
        routeKey: HttpRouteKey.with(preflight.path, HttpMethod.OPTIONS),
        integration: new HttpLambdaIntegration(`${id}Integration`, fn.function),
      });
      functions.set(preflight.name, fn);
    }
    this.functions = functions;
  }
}
