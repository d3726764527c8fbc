/**
 * One route's function and its route on an HTTP API: the wiring every route-serving stack shares (the route
 * group stacks, the checkout preflight, the tokenization host). The logical ids are the route name in
 * PascalCase: `<Name>` (the function construct), `<Name>Route`, `<Name>Integration`.
 */
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config.ts';
import { LambdaFunction, pascalCase } from '../constructs/lambda-function.ts';
import { sellerOfRecordEnvironment } from '../../shared/platform/seller-of-record.ts';
import type { RouteDef } from '../../shared/routes/index.ts';
import { authenticationWrites, type AuthKind } from '../../shared/platform/http/route-def.ts';
import { type StorageRight, storageRightsOf } from '../storage-rights.ts';
import { routeTimeout } from './timeouts.ts';

/** What a served route needs besides its definition. */
export interface RouteTarget {
  readonly config: StageConfig;
  readonly httpApi: IHttpApi;
  readonly table: ITable;
  readonly webhookSigningKey: ISecret;
  readonly cardFingerprintKey: ISecret;
  /** The seller policy PDFs' bucket, for routes with `policyStorage` (required when one of them is served). */
  readonly policyBucket?: IBucket;
}

/** Grants `fn` `rights` in `bucket`, each on its prefix's objects: read (get, head, list), put, or write (all three and delete). */
export function grantStorage(bucket: IBucket, fn: LambdaFunction, rights: Readonly<Record<string, StorageRight>>): void {
  for (const [prefix, right] of Object.entries(rights)) {
    const objects = `${prefix}*`;
    if (right !== 'put') bucket.grantRead(fn.function, objects);
    if (right !== 'read') bucket.grantPut(fn.function, objects);
    if (right === 'write') bucket.grantDelete(fn.function, objects);
  }
}

/** The parts of a route definition that decide its function and route (the preflight route has no others). */
export type ServedRoute = Pick<
  RouteDef,
  | 'name'
  | 'path'
  | 'handler'
  | 'summary'
  | 'table'
  | 'timeoutSeconds'
  | 'signsWebhooks'
  | 'fingerprintsCards'
  | 'policyStorage'
  | 'imageStorage'
  | 'invoicePdfStorage'
  | 'buildsInvoices'
  | 'sendsMail'
  | 'assets'
> & {
  readonly method: keyof typeof HttpMethod;
  /** How it authenticates (the preflight route does not). */
  readonly auth?: AuthKind;
};

/** Adds `route`'s function and route to `scope`; `where` labels the function's description (e.g. the host). */
export function addRouteFunction(scope: Construct, target: RouteTarget, route: ServedRoute, where = ''): LambdaFunction {
  const id = pascalCase(route.name);
  const storage = storageRightsOf(route);
  const stores = Object.keys(storage).length > 0;
  const bucket = stores ? target.policyBucket : undefined;
  if (stores && !bucket) throw new Error(`${route.name} works with the storage bucket, but no bucket was given`);
  const fn = new LambdaFunction(scope, id, {
    config: target.config,
    name: route.name,
    entry: route.handler,
    timeout: routeTimeout(route),
    description: `${route.method} ${route.path}${where}: ${route.summary}`.slice(0, 256),
    table: target.table,
    tableAccess: route.table,
    ...(route.signsWebhooks ? { webhookSigningKey: target.webhookSigningKey } : {}),
    ...(route.fingerprintsCards ? { cardFingerprintKey: target.cardFingerprintKey } : {}),
    environment: {
      ...(bucket ? { POLICY_BUCKET: bucket.bucketName } : {}),
      // The stage's seller of record, for the functions that put it on the invoices they make.
      ...(route.buildsInvoices ? sellerOfRecordEnvironment(target.config.sellerOfRecord) : {}),
      // Mail goes out through SES from the stage's sender.
      ...(route.sendsMail ? { MAIL_FROM: target.config.mailFrom } : {}),
    },
    // Files the function reads at run time (the invoice PDF's font), copied next to its bundle.
    ...(route.assets?.length ? { assets: route.assets } : {}),
  });
  // A function that reads the table may still update what its authentication records (a merchant key's last use),
  // those items only.
  const authUpdates = route.table === 'read' && route.auth ? authenticationWrites[route.auth] : undefined;
  if (authUpdates?.length) {
    fn.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [target.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': authUpdates.map((prefix) => `${prefix}*`) } },
      }),
    );
  }
  if (route.sendsMail) {
    fn.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [Stack.of(scope).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
        conditions: { StringEquals: { 'ses:FromAddress': target.config.mailFrom } },
      }),
    );
  }
  // Least privilege in the bucket: each prefix as its flags say (infra/storage-rights.ts).
  if (bucket) grantStorage(bucket, fn, storage);
  new HttpRoute(scope, `${id}Route`, {
    httpApi: target.httpApi,
    routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
    integration: new HttpLambdaIntegration(`${id}Integration`, fn.function),
  });
  return fn;
}
