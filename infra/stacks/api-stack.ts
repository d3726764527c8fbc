/**
 * The one HTTP API of a stage (payload format 2.0). Routes are attached by the route-group stacks, so this
 * stack stays small and never changes when a route is added.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config.ts';

export interface ApiStackProps extends StackProps {
  readonly config: StageConfig;
}

/**
 * Access log line: request id, caller IP, route key (the path template, never the concrete path, which can
 * carry secrets such as join-link tokens), status and latencies. The tokenization host's API logs the same.
 */
export const accessLogFormat = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    requestTime: '$context.requestTime',
    ip: '$context.identity.sourceIp',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integration.latency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

export class ApiStack extends Stack {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${config.namePrefix}-api`,
      description: `Merchant-of-record platform API (${config.stage})`,
      createDefaultStage: false,
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      logGroupName: `/aws/apigateway/${config.namePrefix}-api`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    // Every route of the stage shares these limits (requests per second, steady and burst); past them API Gateway
    // answers 429 before any function runs. The numbers and why: docs/deploying.md.
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: config.apiThrottle.rateLimit, burstLimit: config.apiThrottle.burstLimit },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: accessLogFormat },
    });

    new CfnOutput(this, 'ApiUrl', { value: this.stage.url, description: 'Base URL of the HTTP API' });
  }
}
