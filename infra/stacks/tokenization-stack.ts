/**
 * The production tokenization host (`Mor-Live-Tokenization`, live only): its own HTTP API, stage throttling,
 * access logs and optional custom domain, with the functions of the route table's `api: 'tokenization'` routes.
 * Raw card data sent here reaches only these functions, never the main API's.
 *
 * The host's address is the `TokenizationUrl` output: `https://<tokenizationDomain>` when the stage config has
 * a custom domain (the execute-api endpoint is then switched off, so the domain is the only way in; point a
 * DNS CNAME or alias at the `TokenizationDomainTarget` output), the execute-api URL otherwise.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { DomainName, HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { StageConfig, TokenizationHostConfig } from '../config.ts';
import type { LambdaFunction } from '../constructs/lambda-function.ts';
import type { RouteDef } from '../../shared/routes/index.ts';
import { accessLogFormat } from './api-stack.ts';
import { addRouteFunction } from './route-function.ts';

export interface TokenizationStackProps extends StackProps {
  readonly config: StageConfig;
  readonly table: ITable;
  readonly webhookSigningKey: ISecret;
  readonly cardFingerprintKey: ISecret;
  /** The routes of the host: `routesFor('live', 'tokenization')`. */
  readonly routes: readonly RouteDef[];
}

export class TokenizationStack extends Stack {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** The function of each route, by route name. */
  readonly functions: ReadonlyMap<string, LambdaFunction>;

  constructor(scope: Construct, id: string, props: TokenizationStackProps) {
    super(scope, id, props);
    const { config } = props;
    const host: TokenizationHostConfig | undefined = config.tokenization;
    if (!host) throw new Error(`The ${config.stage} stage has no tokenization host`);
    const wrongApi = props.routes.filter((r) => r.api !== 'tokenization');
    if (wrongApi.length) throw new Error(`Not routes of the tokenization host: ${wrongApi.map((r) => r.name).join(', ')}`);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: host.apiName,
      description: `Merchant-of-record platform tokenization host (${config.stage})`,
      createDefaultStage: false,
      // With a custom domain, the domain is the host's only address.
      disableExecuteApiEndpoint: host.customDomain !== undefined,
    });

    const domain = host.customDomain
      ? new DomainName(this, 'Domain', {
          domainName: host.customDomain.domainName,
          certificate: Certificate.fromCertificateArn(this, 'Certificate', host.customDomain.certificateArn),
        })
      : undefined;

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      logGroupName: `/aws/apigateway/${host.apiName}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    // The host's own limits (docs/deploying.md): past them API Gateway answers 429 before any function runs.
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: host.throttle.rateLimit, burstLimit: host.throttle.burstLimit },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: accessLogFormat },
      ...(domain ? { domainMapping: { domainName: domain } } : {}),
    });

    const functions = new Map<string, LambdaFunction>();
    const target = {
      config,
      httpApi: this.httpApi,
      table: props.table,
      webhookSigningKey: props.webhookSigningKey,
      cardFingerprintKey: props.cardFingerprintKey,
    };
    for (const route of props.routes) functions.set(route.name, addRouteFunction(this, target, route, ' (tokenization host)'));
    this.functions = functions;

    new CfnOutput(this, 'TokenizationUrl', {
      value: domain ? `https://${host.customDomain!.domainName}` : this.stage.url,
      description: 'Base URL of the tokenization host (POST <url>/tokens)',
    });
    if (domain) {
      new CfnOutput(this, 'TokenizationDomainTarget', {
        value: domain.regionalDomainName,
        description: `DNS target for ${host.customDomain!.domainName} (CNAME or alias)`,
      });
    }
  }
}
