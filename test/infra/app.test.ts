/**
 * The synthesized sandbox and live apps, exactly as `cdk synth --context stage=<stage>` builds them
 * (in-process, with real esbuild bundling of every handler).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { extractText, getDocumentProxy } from 'unpdf';
import { consumers as consumerTable, consumersFor, relayRoutesOf, type StreamConsumerDef } from '../../infra/consumers.ts';
import { bundleDirPrefix, functionBundleBuilds } from '../../infra/constructs/function-bundles.ts';
import { sellerOfRecordEnvironment, sellerOfRecordVariables } from '../../shared/platform/seller-of-record.ts';
import { mcpPreflightRoute, preflightFaceOf, preflightRoutes, preflightRoutesOf } from '../../shared/platform/http/cors.ts';
import { routesFor, type RouteDef, type RouteGroup } from '../../shared/routes/index.ts';
import { authenticationWrites } from '../../shared/platform/http/route-def.ts';
import { apiKey } from '../../shared/people/api-key.entity.ts';
import { stageConfig } from '../../infra/config.ts';
import { globalIndexes, tableKeys, ttlAttribute } from '../../shared/platform/db/table.ts';
import { dataResourceId, expectConsumerWired, expectTableAccess, queueId, stackName, templateOf } from './expectations.ts';
import { cardToken, organizationAccount, orgCall, orgPath } from '../support/fixtures.ts';
import { type OutgoingMail, OutgoingMailEntity, outgoingMailKey } from '../../shared/platform/mail/mail.entity.ts';
import { getMerchant } from '../../shared/people/merchants.repository.ts';
import { samplePayload } from '../../shared/platform/events/catalog.ts';
import type { Delivery } from '../../shared/webhooks/delivery.entity.ts';
import { verifyWebhook } from '../../shared/webhooks/verify.ts';
import { listDeliveries } from '../../shared/webhooks/webhooks.repository.ts';
import { createDestination as createMerchantDestination } from '../../shared/webhooks/webhooks.service.ts';
import { startReceiver } from '../support/receiver.ts';
import { invoiceKey } from '../../shared/invoicing/invoice.entity.ts';
import { awsFetch, getSecretString, s3Url } from '../../shared/platform/aws/signed-fetch.ts';
import { db, tableName } from '../../shared/platform/db/client.ts';
import { invoicePdfKey, storedInvoicePdf } from '../../shared/platform/storage/invoice-pdfs.ts';
import { floorEntry, heavyByNature } from '../bench/functions.ts';
import {
  allOfType,
  bundleDirOf,
  groupedBy,
  importedValue,
  onceEach,
  packagesBundledTwice,
  refTarget,
  removeOutdir,
  resourcesOf,
  resourcesOfType,
  statementsOfRole,
  synthesize,
  synthTimeout,
  tempOutdir,
  type Resource,
  type SynthesizedStage,
} from './synth.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

const contexts = {
  sandbox: { account: '111111111111', region: 'eu-west-1', dashboardUrl: 'https://dashboard.sandbox.test.example' },
  live: { account: '222222222222', region: 'eu-central-1', dashboardUrl: 'https://dashboard.test.example/', mailFrom: 'no-reply@test.example' },
} as const;
const expectedDashboardUrl = { sandbox: 'https://dashboard.sandbox.test.example', live: 'https://dashboard.test.example' };
const groupStack: Record<RouteGroup, string> = {
  system: 'System',
  merchants: 'Merchants',
  dashboard: 'Dashboard',
  organizations: 'Organizations',
  catalog: 'Catalog',
  payments: 'Payments',
  customers: 'Customers',
  checkout: 'Checkout',
  subscriptions: 'Subscriptions',
  oauth: 'OAuth',
  agents: 'Agents',
  pages: 'Pages',
  portal: 'Portal',
  docs: 'Docs',
};
const stackSuffixes = [
  'Data',
  'Api',
  'System',
  'Merchants',
  'Dashboard',
  'Organizations',
  'Catalog',
  'Payments',
  'Customers',
  'Checkout',
  'Subscriptions',
  'OAuth',
  'Agents',
  'Pages',
  'Portal',
  'Docs',
  'Consumers',
];
/** Live also has the production tokenization host's own stack. */
const stackSuffixesOf = (stage: 'sandbox' | 'live') => (stage === 'live' ? [...stackSuffixes, 'Tokenization'] : stackSuffixes);
const routeKeyOf = (r: RouteDef) => `${r.method} ${r.path}`;
const tokenizationCertificateArn = 'arn:aws:acm:eu-central-1:222222222222:certificate/0b2c7c1e-9a4f-4d7e-8f51-3c2b1a0d9e8f';

let outdir: string | undefined;
const synthesized = {} as Record<'sandbox' | 'live', SynthesizedStage>;

beforeAll(() => {
  outdir = tempOutdir();
  // One output directory for both stages: each entry file is bundled once and reused by the second stage.
  synthesized.sandbox = synthesize('sandbox', contexts.sandbox, { outdir });
  synthesized.live = synthesize('live', contexts.live, { outdir });
}, synthTimeout);

afterAll(() => removeOutdir(outdir));

/** A stage's functions by `FunctionName`, in `allOfType`'s order: grouped once per stage, not searched once per function. */
const functionsByName = onceEach((s: SynthesizedStage) =>
  groupedBy(allOfType(s.templates, 'AWS::Lambda::Function'), (f): unknown => f.resource.Properties?.FunctionName),
);
const functionNamed = (s: SynthesizedStage, name: string) => [...(functionsByName(s).get(`mor-${s.built.config.stage}-${name}`) ?? [])];

/** The `sources` of the source map of the bundle in `dir`, read once per bundle (several tests read them). */
const bundleSources = new Map<string, readonly string[]>();
const sourcesIn = (dir: string): readonly string[] => {
  if (!bundleSources.has(dir)) bundleSources.set(dir, JSON.parse(readFileSync(path.join(dir, 'index.mjs.map'), 'utf8')).sources);
  return bundleSources.get(dir)!;
};

/**
 * The variables the repository's code in the bundle in `dir` requires of its function's environment: each module's
 * `requiredEnv('X')`, the ARN variable of its `containerSecret`s, and the seller of record's required variables where
 * the bundle has `shared/platform/seller-of-record.ts`. A module is in a bundle (among its source map's sources) only
 * when code the function runs uses it, so these are what the function can ask for.
 */
const requiredBySource = new Map<string, readonly string[]>();
const sellerModule = path.join(repoRoot, 'shared/platform/seller-of-record.ts');
const sellerRequired = Object.entries(sellerOfRecordVariables)
  .filter(([field]) => !['zip', 'state', 'phoneNumber'].includes(field))
  .map(([, variable]) => variable);
function variablesRequiredIn(dir: string): Set<string> {
  const required = new Set<string>();
  for (const source of sourcesIn(dir)) {
    const file = path.resolve(dir, source);
    if (!file.startsWith(repoRoot) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    if (!requiredBySource.has(file)) {
      const text = readFileSync(file, 'utf8');
      const literal = [...text.matchAll(/requiredEnv\('([A-Z0-9_]+)'\)|containerSecret\('([A-Z0-9_]+)'/g)].map((m) => (m[1] ?? m[2])!);
      requiredBySource.set(file, [...literal, ...(file === sellerModule ? sellerRequired : [])]);
    }
    for (const variable of requiredBySource.get(file)!) required.add(variable);
  }
  return required;
}

/** What Lambda's runtime sets in every function's environment (of what the code requires). */
const runtimeVariables = new Set(['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']);

describe.each(['sandbox', 'live'] as const)('the %s app', (stage) => {
  const consumers = consumersFor(stage);
  const s = () => synthesized[stage];
  /** The main API's routes of this stage (a route may exist on one stage only). */
  const routeList = routesFor(stage);
  /** The id and resource of the Data stack's secret named `mor-<stage>-<name>`. */
  const secretNamed = (name: string) => {
    const found = resourcesOfType(templateOf(s(), 'Data'), 'AWS::SecretsManager::Secret').filter(([, r]) => r.Properties?.Name === `mor-${stage}-${name}`);
    expect(found, name).toHaveLength(1);
    return found[0]! as [string, Resource];
  };
  /** The secrets a definition's function may read (`secretsmanager:GetSecretValue`), by logical id, and its environment. */
  const secretAccessOf = (name: string) => {
    const found = functionNamed(s(), name);
    expect(found, name).toHaveLength(1);
    const { stack, resource: fn } = found[0]!;
    const reads = statementsOfRole(s().templates.get(stack)!, refTarget(fn.Properties?.Role)!)
      .filter((st) => [st.Action].flat().includes('secretsmanager:GetSecretValue'))
      .map((st) => refTarget(importedValue(s().templates, st.Resource)?.value));
    return { reads, env: (fn.Properties?.Environment?.Variables ?? {}) as Record<string, unknown> };
  };

  it('has the data, API, route-group and consumer stacks of this stage only (on live also the tokenization host)', () => {
    expect([...s().templates.keys()].sort()).toEqual(
      stackSuffixesOf(stage)
        .map((x) => stackName(s(), x))
        .sort(),
    );
  });

  it('deploys every stack to the account and region given as context', () => {
    const assembly = s().built.app.synth();
    for (const stack of assembly.stacks) {
      expect(stack.environment.account, stack.stackName).toBe(contexts[stage].account);
      expect(stack.environment.region, stack.stackName).toBe(contexts[stage].region);
    }
    expect(assembly.stacks).toHaveLength(stackSuffixesOf(stage).length);
  });

  it(`${stage === 'live' ? 'enables' : 'disables'} termination protection on every stack`, () => {
    for (const stack of s().built.app.synth().stacks) expect(stack.terminationProtection, stack.stackName).toBe(stage === 'live');
  });

  it('lets exactly the functions that sign webhooks read the signing key, which is kept like the data', () => {
    const [keyId, key] = secretNamed('webhook-signing-key');
    expect(key.Properties!.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(key.DeletionPolicy).toBe(stage === 'live' ? 'Retain' : 'Delete');
    const signers = [...routeList, ...consumers]
      .filter((d) => d.signsWebhooks)
      .map((d) => d.name)
      .sort();
    expect(signers).toEqual([
      // The dashboard's webhook forms: the new destination's signing secret, and the signed test ping.
      'dashboard-developers-webhook-form',
      'dashboard-developers-webhooks-form',
      'org-webhook-destinations-create',
      'org-webhook-destinations-update',
      'webhook-destinations-create',
      'webhook-destinations-test',
      'webhook-sender',
    ]);
    for (const def of [...routeList, ...consumers]) {
      const { reads, env } = secretAccessOf(def.name);
      if (def.signsWebhooks) {
        expect(refTarget(importedValue(s().templates, env.WEBHOOK_SIGNING_KEY_ARN)?.value), def.name).toBe(keyId);
        expect(
          reads.filter((r) => r === keyId),
          def.name,
        ).toHaveLength(1);
      } else {
        expect(env.WEBHOOK_SIGNING_KEY_ARN, def.name).toBeUndefined();
        expect(reads, def.name).not.toContain(keyId);
      }
      expect(env.WEBHOOK_SIGNING_KEY, def.name).toBeUndefined();
    }
  });

  it('lets exactly the functions that tokenize cards read the card fingerprint key, which is kept like the data', () => {
    const [keyId, key] = secretNamed('card-fingerprint-key');
    expect(key.Properties!.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(key.DeletionPolicy).toBe(stage === 'live' ? 'Retain' : 'Delete');
    const routes = [...routeList, ...routesFor(stage, 'tokenization')];
    const tokenizers = routes.filter((r) => r.fingerprintsCards).map((r) => r.name);
    if (stage === 'sandbox') expect(tokenizers).toContain('payment-instrument-tokens-create');
    else expect(tokenizers).not.toContain('payment-instrument-tokens-create');
    for (const def of [...routes, ...consumers]) {
      const { reads, env } = secretAccessOf(def.name);
      if ('fingerprintsCards' in def && def.fingerprintsCards) {
        expect(refTarget(importedValue(s().templates, env.CARD_FINGERPRINT_KEY_ARN)?.value), def.name).toBe(keyId);
        expect(
          reads.filter((r) => r === keyId),
          def.name,
        ).toHaveLength(1);
      } else {
        expect(env.CARD_FINGERPRINT_KEY_ARN, def.name).toBeUndefined();
        expect(reads, def.name).not.toContain(keyId);
      }
      expect(env.CARD_FINGERPRINT_KEY, def.name).toBeUndefined();
      expect(env.LIVE_USES_SANDBOX_PROCESSOR, def.name).toBeUndefined();
    }
  });

  it('keeps policy PDFs, images and invoice PDFs in one private bucket, and lets exactly the policy routes touch its policies/ objects, the image routes its images/ and image-uploads/ objects, the invoice PDF downloads read and their renderer put its invoices/ objects', () => {
    const buckets = resourcesOfType(templateOf(s(), 'Data'), 'AWS::S3::Bucket');
    expect(allOfType(s().templates, 'AWS::S3::Bucket')).toHaveLength(1);
    const [bucketId, bucket] = buckets[0]!;
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
    expect(bucket.Properties?.VersioningConfiguration).toBeUndefined();
    expect(bucket.DeletionPolicy).toBe(stage === 'live' ? 'Retain' : 'Delete');
    // Product images uploaded but never confirmed expire after a day.
    expect(bucket.Properties?.LifecycleConfiguration?.Rules).toEqual([
      { Id: 'UnconfirmedImageUploads', Prefix: 'image-uploads/', ExpirationInDays: 1, Status: 'Enabled' },
    ]);
    // The dashboard's pages (its origin only) may PUT a policy PDF to a presigned URL from the browser.
    expect(bucket.Properties?.CorsConfiguration?.CorsRules).toEqual([
      { AllowedOrigins: [expect.stringMatching(/^https:\/\/[^/]+$/)], AllowedMethods: ['PUT'], AllowedHeaders: ['content-type'], MaxAge: 3000 },
    ]);
    const bucketPolicy = resourcesOfType(templateOf(s(), 'Data'), 'AWS::S3::BucketPolicy').flatMap(([, p]) => p.Properties?.PolicyDocument?.Statement);
    expect(bucketPolicy).toContainEqual(expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));

    const users = routeList
      .filter((r) => r.policyStorage)
      .map((r) => `${r.name}:${r.policyStorage}`)
      .sort();
    expect(users).toEqual([
      'checkout-invoices-get:read',
      'checkout-orders-get:read',
      'checkout-orders-policy:read',
      'checkout-plans-get:read',
      'checkout-plans-policy:read',
      'checkout-policies-delete:write',
      'checkout-policies-get:read',
      'checkout-policies-update:read',
      'checkout-policies-upload:write',
      'dashboard-checkout-policies-upload:write',
      'dashboard-checkout-settings-form:write',
      'dashboard-checkout-settings:read',
      'merchant-checkout-plans-get:read',
    ]);
    expect(
      routeList
        .filter((r) => r.imageStorage)
        .map((r) => `${r.name}:${r.imageStorage}`)
        .sort(),
    ).toEqual([
      'checkout-customization-logo:write',
      'checkout-images-get:read',
      'mcp:write',
      'merchant-product-image-uploads-create:write',
      'merchant-product-images-confirm:write',
    ]);
    expect(
      routeList
        .filter((r) => r.invoicePdfStorage)
        .map((r) => `${r.name}:${r.invoicePdfStorage}`)
        .sort(),
    ).toEqual(['dashboard-invoice-pdf:read', 'merchant-invoices-download:read', 'portal-invoice-pdf:read']);
    expect(consumers.filter((c) => c.storesInvoicePdfs).map((c) => c.name)).toEqual(['invoicing-render-pdf']);
    for (const def of [...routeList, ...consumers]) {
      const found = functionNamed(s(), def.name);
      expect(found, def.name).toHaveLength(1);
      const { stack, resource: fn } = found[0]!;
      const statements = statementsOfRole(s().templates.get(stack)!, refTarget(fn.Properties?.Role)!).filter((st) =>
        [st.Action].flat().some((a: string) => a.startsWith('s3:')),
      );
      const actions = statements.flatMap((st) => [st.Action].flat());
      const env = (fn.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      const access = 'policyStorage' in def ? def.policyStorage : undefined;
      const images = 'imageStorage' in def ? def.imageStorage : undefined;
      const invoices = 'invoicePdfStorage' in def ? def.invoicePdfStorage : 'storesInvoicePdfs' in def && def.storesInvoicePdfs ? 'put' : undefined;
      if (!access && !images && !invoices) {
        expect(actions, def.name).toEqual([]);
        expect(env.POLICY_BUCKET, def.name).toBeUndefined();
        continue;
      }
      expect(refTarget(importedValue(s().templates, env.POLICY_BUCKET)?.value), def.name).toBe(bucketId);
      if (invoices === 'put') {
        // The renderer only puts: it reads and deletes nothing.
        expect(actions, def.name).toEqual(expect.arrayContaining(['s3:PutObject']));
        expect(
          actions.filter((a) => /^s3:(Get|Delete|List)/.test(a)),
          def.name,
        ).toEqual([]);
      } else expect(actions, def.name).toEqual(expect.arrayContaining(['s3:GetObject*']));
      if (access === 'write' || images === 'write') expect(actions, def.name).toEqual(expect.arrayContaining(['s3:PutObject', 's3:DeleteObject*']));
      else if (invoices !== 'put')
        expect(
          actions.filter((a) => /^s3:(Put|Delete)/.test(a)),
          def.name,
        ).toEqual([]);
      // Objects only under the prefixes of its flags (the bucket itself for listing).
      const prefixes = [
        ...(access ? ['/policies/*'] : []),
        ...(images ? ['/images/*'] : []),
        ...(images === 'write' ? ['/image-uploads/*'] : []),
        ...(invoices ? ['/invoices/*'] : []),
      ];
      const objectResources = statements.flatMap((st) => [st.Resource].flat()).filter((r) => r?.['Fn::Join']);
      expect(objectResources.length, def.name).toBeGreaterThan(0);
      for (const r of objectResources) expect(prefixes, def.name).toContain(r['Fn::Join'][1].at(-1));
      // Writes only where the flag allows them.
      for (const st of statements.filter((x) => [x.Action].flat().some((a: string) => /^s3:(Put|Delete)/.test(a)))) {
        for (const r of [st.Resource].flat().filter((x) => x?.['Fn::Join'])) {
          const prefix = r['Fn::Join'][1].at(-1);
          if (prefix === '/policies/*') expect(access, def.name).toBe('write');
          else if (prefix === '/invoices/*') expect(invoices, def.name).toBe('put');
          else expect(images, def.name).toBe('write');
        }
      }
    }
  });

  it("gives exactly the functions that make invoices or checkout receipts the stage's seller of record", () => {
    const routes = [...routeList, ...routesFor(stage, 'tokenization')];
    expect(
      routes
        .filter((r) => r.buildsInvoices)
        .map((r) => r.name)
        .sort(),
    ).toEqual([
      'checkout-orders-confirm',
      'checkout-plans-confirm',
      'customer-invoices-create',
      'dashboard-subscription-cancel',
      'dashboard-subscription-pause',
      'merchant-checkout-plans-confirm',
      'portal-payment-method-save',
      'portal-subscription-cancel',
      'portal-subscription-pause',
      'portal-subscription-reactivate',
      'subscription-cancellations-create',
      'subscription-cancellations-update',
      'subscription-pauses-create',
      'subscription-pauses-delete',
      'subscription-pauses-update',
      'subscription-reactivations-create',
      'subscriptions-create',
      'subscriptions-update-items',
      ...(stage === 'sandbox' ? ['test-clock-advance'] : []),
    ]);
    expect(consumers.filter((c) => c.buildsInvoices).map((c) => c.name)).toEqual([
      'payments-reconcile',
      'subscriptions-instrument-retry',
      ...(stage === 'sandbox' ? ['subscriptions-continue-advance'] : []),
      'subscriptions-renew',
    ]);
    const seller = sellerOfRecordEnvironment(s().built.config.sellerOfRecord);
    expect(seller).toMatchObject({
      SELLER_OF_RECORD_NAME: 'MoR Payments Platform Ltd',
      SELLER_OF_RECORD_ADDRESS: '10 Ledger Street',
      SELLER_OF_RECORD_CITY: 'London',
      SELLER_OF_RECORD_ZIP: 'EC2A 4BX',
      SELLER_OF_RECORD_COUNTRY: 'GB',
      SELLER_OF_RECORD_TAX_NUMBER_TYPE: 'vat',
      SELLER_OF_RECORD_TAX_NUMBER: 'GB123456789',
    });
    expect('SELLER_OF_RECORD_PHONE' in seller).toBe(stage === 'live');
    for (const def of [...routes, ...consumers]) {
      const found = functionNamed(s(), def.name);
      expect(found, def.name).toHaveLength(1);
      const env = (found[0]!.resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      const given = Object.fromEntries(Object.entries(env).filter(([key]) => key.startsWith('SELLER_OF_RECORD_')));
      expect(given, def.name).toEqual('buildsInvoices' in def && def.buildsInvoices ? seller : {});
    }
  });

  it('gives every function each variable the code in its bundle requires, as deployed', () => {
    // The local stack gives all its functions one environment, so a function deployed without a variable its code
    // needs (the seller of record, a queue's URL, the mail sender) would fail only once deployed: held here instead.
    const missing: string[] = [];
    const requiring = new Map<string, string[]>();
    for (const def of [...routeList, ...routesFor(stage, 'tokenization'), ...consumers]) {
      const [found] = functionNamed(s(), def.name);
      const env = (found!.resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      for (const variable of variablesRequiredIn(bundleDirOf(outdir!, found!.resource))) {
        requiring.set(variable, [...(requiring.get(variable) ?? []), def.name]);
        if (!(variable in env) && !runtimeVariables.has(variable)) missing.push(`${def.name} needs ${variable}`);
      }
    }
    expect(missing).toEqual([]);
    // The check sees what the functions require: every function its table, the seller where an invoice or receipt is
    // made, a queue's URL where messages are sent to it, the mail settings where mail is sent.
    expect(requiring.get('TABLE_NAME')?.length).toBeGreaterThan(100);
    expect(requiring.get('SELLER_OF_RECORD_NAME')).toEqual(expect.arrayContaining(['payments-reconcile', 'subscriptions-renew', 'checkout-orders-confirm']));
    expect(requiring.get('RENEWAL_QUEUE_URL')).toEqual(['subscriptions-sweep']);
    expect(requiring.get('POLICY_BUCKET')).toEqual(expect.arrayContaining(['mcp', 'checkout-images-get', 'invoicing-render-pdf']));
    expect(requiring.get('MAIL_FROM')?.sort()).toEqual([
      'dashboard-merchants-form',
      'dashboard-password-reset-form',
      'dashboard-sign-up-form',
      'dashboard-team-form',
      'invitations-create',
      'mail-sender',
      'portal-sign-in',
      'users-sign-up',
    ]);
    expect(requiring.get('MAIL_SENDERS_AT_ONCE')).toEqual(['mail-sender']);
  });

  it('lets a function that reads the table update what its authentication records, those items only', () => {
    // A merchant key's use is recorded on it (`lastUsedAt`): its `read` routes may update the key items and no other.
    const updating: string[] = [];
    for (const def of [...routeList, ...routesFor(stage, 'tokenization')]) {
      const [found] = functionNamed(s(), def.name);
      const updates = statementsOfRole(s().templates.get(found!.stack)!, refTarget(found!.resource.Properties?.Role)!).filter(
        (st) => st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'],
      );
      const prefixes = def.table === 'read' ? authenticationWrites[def.auth] : undefined;
      if (!prefixes) {
        expect(updates, def.name).toEqual([]);
        continue;
      }
      updating.push(def.name);
      expect(updates, def.name).toHaveLength(1);
      expect(updates[0]!.Action, def.name).toBe('dynamodb:UpdateItem');
      expect(updates[0]!.Condition, def.name).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((p) => `${p}*`) } });
    }
    expect(updating).toEqual(expect.arrayContaining(['merchant-events-list', 'merchant-balances-summary', 'merchant-payouts-get']));
    // The prefix is the key items': a merchant key's item is `APIKEY#<id>`.
    expect(apiKey('key-id').pk.startsWith(authenticationWrites.apiKey![0]!)).toBe(true);
  });

  it('lets exactly the route functions that send mail send it, through SES from the stage sender only', () => {
    // Those mail a link whose token the table never keeps; the others' mails are written with the changes they tell of,
    // and sent by the mail sender (a consumer).
    expect(
      routeList
        .filter((r) => r.sendsMail)
        .map((r) => r.name)
        .sort(),
    ).toEqual([
      'dashboard-merchants-form',
      'dashboard-password-reset-form',
      'dashboard-sign-up-form',
      'dashboard-team-form',
      'invitations-create',
      'portal-sign-in',
      'users-sign-up',
    ]);
    for (const def of routeList) {
      const [found] = functionNamed(s(), def.name);
      const env = (found!.resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      const mail = statementsOfRole(s().templates.get(found!.stack)!, refTarget(found!.resource.Properties?.Role)!).filter((st) =>
        [st.Action].flat().includes('ses:SendEmail'),
      );
      if (def.sendsMail) {
        expect(env, def.name).toMatchObject({ MAIL_FROM: s().built.config.mailFrom });
        expect(mail, def.name).toHaveLength(1);
        expect(mail[0]!.Condition, def.name).toEqual({ StringEquals: { 'ses:FromAddress': s().built.config.mailFrom } });
      } else {
        expect(env.MAIL_FROM, def.name).toBeUndefined();
        expect(mail, def.name).toEqual([]);
      }
    }
  });

  it(`${stage === 'live' ? 'does not route' : 'routes'} the stage token endpoint, and routes token list, token get and payment methods`, () => {
    const routeKeys = new Set(allOfType(s().templates, 'AWS::ApiGatewayV2::Route').map((r) => r.resource.Properties?.RouteKey));
    const org = '/api/v1/public-api/organizations/{organizationId}';
    expect(routeKeys.has(`POST ${org}/payment-instruments/tokens`)).toBe(stage === 'sandbox');
    expect(functionNamed(s(), 'payment-instrument-tokens-create')).toHaveLength(stage === 'sandbox' ? 1 : 0);
    for (const key of [`GET ${org}/payment-instruments/tokens`, `GET ${org}/payment-instruments/tokens/{tokenId}`, `GET ${org}/payment-methods`]) {
      expect(routeKeys.has(key), key).toBe(true);
    }
  });

  it("gives every function at most 4 KB of environment, Lambda's quota, with room to spare", () => {
    // Keys and values as Lambda counts them once deployed: a value CloudFormation resolves (a queue's URL, an ARN) is
    // counted as 128 characters, more than any of ours comes to; joined values by their parts.
    const resolved = 128;
    const lengthOf = (value: unknown): number => {
      if (typeof value === 'string') return value.length;
      const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
      if (join) return join[1].reduce((n: number, part) => n + lengthOf(part), join[0].length * Math.max(0, join[1].length - 1));
      return resolved;
    };
    const sizes = allOfType(s().templates, 'AWS::Lambda::Function').map(({ resource }) => {
      const env = (resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      return [String(resource.Properties?.FunctionName), Object.entries(env).reduce((n, [k, v]) => n + k.length + lengthOf(v), 0)] as const;
    });
    // The largest, the stream relay's (its routes), is under 1 KB.
    const [largest, size] = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
    expect(size, largest).toBeLessThan(3_500);
  });

  it("keeps every stack under 450 resources, and within CloudFormation's other quotas of a template", () => {
    const sizes: Record<string, number> = {};
    for (const [name, template] of s().templates) {
      const json = template.toJSON();
      expect(Object.keys(resourcesOf(template)).length, name).toBeLessThan(450);
      // 200 outputs and 200 parameters a template, and 1 MB of template uploaded through S3, as CDK deploys it.
      expect(Object.keys(json.Outputs ?? {}).length, name).toBeLessThan(180);
      expect(Object.keys(json.Parameters ?? {}).length, name).toBeLessThan(180);
      sizes[name] = Buffer.byteLength(JSON.stringify(json));
    }
    // The largest, the pages' stack, is about 190 KB.
    expect(Math.max(...Object.values(sizes))).toBeLessThan(900_000);
  });

  it('gives every route exactly one function and one route, in its group stack, wired to each other', () => {
    const [apiId] = resourcesOfType(templateOf(s(), 'Api'), 'AWS::ApiGatewayV2::Api').map(([id]) => id);
    expect(apiId).toBeDefined();

    for (const route of routeList) {
      const where = stackName(s(), groupStack[route.group]);
      const fns = functionNamed(s(), route.name);
      expect(fns, `function of ${route.name}`).toHaveLength(1);
      expect(fns[0]!.stack).toBe(where);

      const routes = allOfType(s().templates, 'AWS::ApiGatewayV2::Route').filter((r) => r.resource.Properties?.RouteKey === `${route.method} ${route.path}`);
      expect(routes, `route ${route.method} ${route.path}`).toHaveLength(1);
      expect(routes[0]!.stack).toBe(where);
      const props = routes[0]!.resource.Properties!;
      expect(props.AuthorizationType).toBe('NONE');

      // The route belongs to the one HTTP API of the Api stack...
      const api = importedValue(s().templates, props.ApiId);
      expect(api?.stack).toBe(stackName(s(), 'Api'));
      expect(refTarget(api?.value)).toBe(apiId);

      // ...and targets a Lambda proxy integration (payload 2.0) of this route's own function.
      const [prefix, integrationRef] = props.Target['Fn::Join'][1];
      expect(prefix).toBe('integrations/');
      const integration = resourcesOf(templateOf(s(), groupStack[route.group]))[refTarget(integrationRef)!]!;
      expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      expect(refTarget(integration.Properties!.IntegrationUri)).toBe(fns[0]!.id);

      // API Gateway may invoke the function.
      const permissions = resourcesOfType(templateOf(s(), groupStack[route.group]), 'AWS::Lambda::Permission').filter(
        ([, p]) => refTarget(p.Properties?.FunctionName) === fns[0]!.id && p.Properties?.Principal === 'apigateway.amazonaws.com',
      );
      expect(permissions.length, `invoke permission of ${route.name}`).toBeGreaterThanOrEqual(1);
    }

    // Plus, on live, the tokenization host's own routes and functions (see below), and the CORS preflights.
    const hostRoutes = routesFor(stage, 'tokenization').length;
    const preflights = preflightRoutesOf(routeList).length;
    expect(allOfType(s().templates, 'AWS::ApiGatewayV2::Route')).toHaveLength(routeList.length + hostRoutes + preflights);
    expect(allOfType(s().templates, 'AWS::Lambda::Function')).toHaveLength(routeList.length + hostRoutes + preflights + consumers.length);
  });

  it("keeps each HTTP API well within API Gateway's quotas of one API: 300 integrations (not raised on request) and 300 routes", () => {
    // Every route has its own Lambda integration. An API past either quota does not deploy; held at 95 % of them, as
    // the stacks' resources are held under 500, so the test fails before a deployment does.
    // The API a resource names: its stack's own, or the one it imports (by the exporting stack and its value).
    const apiOf = (stack: string, id: unknown) => {
      const imported = importedValue(s().templates, id);
      return JSON.stringify(imported ? [imported.stack, imported.value] : [stack, id]);
    };
    const perApi = (type: string) =>
      [...groupedBy(allOfType(s().templates, type), ({ stack, resource }) => apiOf(stack, resource.Properties?.ApiId)).values()]
        .map((resources) => resources.length)
        .sort((a, b) => b - a);
    const main = routeList.length + preflightRoutesOf(routeList).length;
    const apis = stage === 'live' ? [main, routesFor(stage, 'tokenization').length] : [main];
    expect(perApi('AWS::ApiGatewayV2::Route')).toEqual(apis);
    expect(perApi('AWS::ApiGatewayV2::Integration')).toEqual(apis);
    expect(main).toBeLessThanOrEqual(285);
  });

  it.each(Object.entries(preflightRoutes))(
    'routes the CORS preflight of every %s path to one function without table access, in the stack of the routes it grants',
    (face, preflight) => {
      const preflights = allOfType(s().templates, 'AWS::ApiGatewayV2::Route').filter((r) => String(r.resource.Properties?.RouteKey).startsWith('OPTIONS '));
      expect(preflights.map((r) => r.resource.Properties?.RouteKey).sort()).toEqual(
        preflightRoutesOf(routeList)
          .map((p) => `OPTIONS ${p.path}`)
          .sort(),
      );
      const groups = new Set(routeList.filter((r) => preflightFaceOf(r) === face).map((r) => r.group));
      expect(groups.size).toBe(1);
      const route = preflights.find((r) => r.resource.Properties?.RouteKey === `OPTIONS ${preflight.path}`)!;
      expect(route.stack).toBe(stackName(s(), groupStack[[...groups][0]!]));
      const fns = functionNamed(s(), preflight.name);
      expect(fns).toHaveLength(1);
      expectTableAccess(s(), templateOf(s(), groupStack[[...groups][0]!]), fns[0]!.resource, 'none');
    },
  );

  it("routes the MCP endpoint's CORS preflight to one function, in the agents' stack, and no other OPTIONS route exists", () => {
    const preflights = allOfType(s().templates, 'AWS::ApiGatewayV2::Route').filter((r) => String(r.resource.Properties?.RouteKey).startsWith('OPTIONS '));
    expect(preflights.map((r) => r.resource.Properties?.RouteKey).sort()).toEqual(
      [...Object.values(preflightRoutes).map((p) => `OPTIONS ${p.path}`), `OPTIONS ${mcpPreflightRoute.path}`].sort(),
    );
    expect(preflights.find((r) => r.resource.Properties?.RouteKey === `OPTIONS ${mcpPreflightRoute.path}`)!.stack).toBe(stackName(s(), groupStack.agents));
    expect(functionNamed(s(), mcpPreflightRoute.name)).toHaveLength(1);
  });

  it('routes the MCP server cards at the host root, not under /api', () => {
    const keys = allOfType(s().templates, 'AWS::ApiGatewayV2::Route').map((r) => r.resource.Properties?.RouteKey);
    expect(keys).toEqual(
      expect.arrayContaining(['GET /.well-known/mcp/server-card.json', 'GET /.well-known/mcp.json', 'POST /api/mcp', 'GET /api/mcp', 'DELETE /api/mcp']),
    );
  });

  if (stage === 'live') {
    it('serves exactly the tokenization routes from Mor-Live-Tokenization, on its own HTTP API, and none from the main API', () => {
      const hostRoutes = routesFor('live', 'tokenization');
      expect(hostRoutes.map(routeKeyOf)).toContain('POST /tokens');
      const t = templateOf(s(), 'Tokenization');
      const apis = resourcesOfType(t, 'AWS::ApiGatewayV2::Api');
      expect(apis).toHaveLength(1);
      const [apiId, api] = apis[0]!;
      expect(api.Properties).toMatchObject({ Name: 'mor-live-tokenization', ProtocolType: 'HTTP' });
      expect(api.Properties!.DisableExecuteApiEndpoint).toBeFalsy();

      const routes = resourcesOfType(t, 'AWS::ApiGatewayV2::Route');
      expect(routes.map(([, r]) => r.Properties!.RouteKey).sort()).toEqual(hostRoutes.map(routeKeyOf).sort());
      for (const route of hostRoutes) {
        const [[, r]] = routes.filter(([, x]) => x.Properties!.RouteKey === routeKeyOf(route)) as [[string, Resource]];
        // The host's own API (a reference inside the stack, never the main API's export)...
        expect(r.Properties!.ApiId).toEqual({ Ref: apiId });
        // ...and a Lambda proxy integration of the route's own function, in this stack.
        const fns = functionNamed(s(), route.name);
        expect(fns, route.name).toHaveLength(1);
        expect(fns[0]!.stack).toBe(stackName(s(), 'Tokenization'));
        const integration = resourcesOf(t)[refTarget(r.Properties!.Target['Fn::Join'][1][1])!]!;
        expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
        expect(refTarget(integration.Properties!.IntegrationUri)).toBe(fns[0]!.id);
        expect(fns[0]!.resource.Properties!.Timeout, route.name).toBeLessThan(30);
        expectTableAccess(s(), t, fns[0]!.resource, route.table);
        // Only the function that tokenizes may read the card fingerprint key.
        const env = fns[0]!.resource.Properties!.Environment.Variables as Record<string, unknown>;
        expect(env.CARD_FINGERPRINT_KEY_ARN !== undefined, route.name).toBe(route.fingerprintsCards === true);
        // Its own bundle, built from its handler.
        const dir = bundleDirOf(outdir!, fns[0]!.resource);
        const sources = sourcesIn(dir);
        expect(
          sources.map((x) => path.resolve(dir, x)),
          route.name,
        ).toContain(path.join(repoRoot, route.handler));
      }

      // The main API routes none of the host's paths; the host routes nothing of the main API.
      const elsewhere = [...s().templates]
        .filter(([name]) => name !== stackName(s(), 'Tokenization'))
        .flatMap(([, x]) => resourcesOfType(x, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties!.RouteKey as string));
      for (const key of hostRoutes.map(routeKeyOf)) expect(elsewhere, key).not.toContain(key);
      expect(elsewhere).toHaveLength(routesFor('live').length + preflightRoutesOf(routesFor('live')).length); // and the CORS preflights
    });

    it('throttles the tokenization host on its own stage (50 requests per second, bursts of 100), with access logs and its URL as output', () => {
      const t = templateOf(s(), 'Tokenization');
      const stages = resourcesOfType(t, 'AWS::ApiGatewayV2::Stage');
      expect(stages).toHaveLength(1);
      expect(stages[0]![1].Properties).toMatchObject({
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
        AccessLogSettings: { DestinationArn: expect.anything(), Format: expect.stringContaining('$context.routeKey') },
      });
      expect(JSON.stringify(t.toJSON().Outputs?.TokenizationUrl?.Value)).toContain('execute-api');
      expect(resourcesOfType(t, 'AWS::ApiGatewayV2::DomainName')).toHaveLength(0);
    });
  } else {
    it('has no tokenization host: no such stack, and none of its routes on any API', () => {
      expect(routesFor('sandbox', 'tokenization')).toEqual([]);
      expect([...s().templates.keys()].some((name) => /Tokenization/.test(name))).toBe(false);
      const keys = allOfType(s().templates, 'AWS::ApiGatewayV2::Route').map((r) => r.resource.Properties?.RouteKey);
      for (const route of routesFor('live', 'tokenization')) expect(keys, route.name).not.toContain(routeKeyOf(route));
      expect(allOfType(s().templates, 'AWS::ApiGatewayV2::Api')).toHaveLength(1);
    });
  }

  it('runs every function on nodejs22.x arm64 with tracing, 512 MB and its own log group', () => {
    const retention = stage === 'live' ? 365 : 30;
    for (const { stack, id, resource } of allOfType(s().templates, 'AWS::Lambda::Function')) {
      const p = resource.Properties!;
      expect(p, id).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        MemorySize: 512,
        Handler: 'index.handler',
      });
      expect(p.FunctionName.length).toBeLessThanOrEqual(64);
      const logGroup = resourcesOf(s().templates.get(stack)!)[refTarget(p.LoggingConfig?.LogGroup)!];
      expect(logGroup?.Type, `log group of ${id}`).toBe('AWS::Logs::LogGroup');
      expect(logGroup?.Properties).toMatchObject({ LogGroupName: `/aws/lambda/${p.FunctionName}`, RetentionInDays: retention });
    }
  });

  it('keeps route functions inside the 30 s API Gateway integration timeout', () => {
    for (const route of routeList) {
      const timeout = functionNamed(s(), route.name)[0]!.resource.Properties!.Timeout;
      expect(timeout, route.name).toBeGreaterThan(0);
      expect(timeout, route.name).toBeLessThan(30);
    }
  });

  it('gives every function the stage configuration it reads', () => {
    for (const { id, resource } of allOfType(s().templates, 'AWS::Lambda::Function')) {
      expect(resource.Properties!.Environment.Variables, id).toMatchObject({
        TABLE_NAME: `mor-${stage}-main`,
        STAGE: stage,
        DASHBOARD_URL: expectedDashboardUrl[stage],
        POWERTOOLS_SERVICE_NAME: expect.any(String),
        POWERTOOLS_METRICS_NAMESPACE: expect.any(String),
        NODE_OPTIONS: '--enable-source-maps',
      });
    }
  });

  it('carries no local-only setting in any function environment', () => {
    for (const { id, resource } of allOfType(s().templates, 'AWS::Lambda::Function')) {
      for (const [key, value] of Object.entries<unknown>(resource.Properties?.Environment?.Variables ?? {})) {
        expect(key, id).not.toMatch(/^(AWS_ENDPOINT_URL|WEBHOOK_ALLOW_LOOPBACK)/);
        expect(JSON.stringify(value), `${id} ${key}`).not.toMatch(/localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]/i);
      }
    }
  });

  it('grants each route function only the table access its route declares', () => {
    for (const route of routeList) {
      const [fn] = functionNamed(s(), route.name);
      expectTableAccess(s(), s().templates.get(fn!.stack)!, fn!.resource, route.table);
    }
  });

  it('wires every consumer of the consumer table to its event source', () => {
    for (const consumer of consumers) expectConsumerWired(s(), consumer);
    // A consumer named for some stages only (the test clock's background advance: sandbox) is on no other.
    const elsewhere = consumerTable.filter((c) => !consumers.includes(c)).map((c) => c.name);
    expect(elsewhere).toEqual(stage === 'live' ? ['subscriptions-continue-advance'] : []);
    const names = allOfType(s().templates, 'AWS::Lambda::Function').map((f) => f.resource.Properties?.FunctionName);
    expect(names).toContain(`mor-${stage}-webhook-sender`);
    // The webhook sender alone has dedicated pollers: a burst of events starts at 20 batches at once.
    expect(consumers.filter((c) => c.source === 'queue' && c.provisionedPollers).map((c) => c.name)).toEqual(['webhook-sender']);
    // The mail sender alone is capped, for SES's sending rate: two batches at once, and a mail tried for two hours.
    expect(consumers.filter((c) => c.source === 'queue' && c.maxConcurrency).map((c) => [c.name, c.source === 'queue' && c.maxConcurrency])).toEqual([
      ['mail-sender', 2],
    ]);
    for (const name of elsewhere) expect(names).not.toContain(`mor-${stage}-${name}`);
  });

  it('has two readers of the table stream, the webhook fan-out and the relay; every other stream consumer takes its records from its own queue', () => {
    const streamArn = { 'Fn::GetAtt': [dataResourceId(s(), 'AWS::DynamoDB::Table'), 'StreamArn'] };
    const mappings = resourcesOfType(templateOf(s(), 'Consumers'), 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties!);
    const readers = mappings.filter((m) => isDeepStrictEqual(importedValue(s().templates, m.EventSourceArn)?.value, streamArn));
    const functions = resourcesOf(templateOf(s(), 'Consumers'));
    const nameOf = (m: Record<string, any>) => functions[refTarget(m.FunctionName)!]?.Properties?.FunctionName;
    expect(readers.map(nameOf).sort()).toEqual([`mor-${stage}-stream-relay`, `mor-${stage}-webhook-fanout`]);
    const relayed = consumers.filter((c) => c.source === 'queue' && c.relayed).map((c) => c.name);
    expect(relayed.sort()).toEqual(
      stage === 'sandbox'
        ? ['invoicing-render-pdf', 'mail-sender', 'subscriptions-continue-advance', 'subscriptions-instrument-retry']
        : ['invoicing-render-pdf', 'mail-sender', 'subscriptions-instrument-retry'],
    );
    // The sandbox's test clocks have a queue of their own; live has none.
    const queueNames = resourcesOfType(templateOf(s(), 'Data'), 'AWS::SQS::Queue').map(([, q]) => q.Properties!.QueueName);
    expect(queueNames.includes(`mor-${stage}-clock-advances`)).toBe(stage === 'sandbox');
    // Every dead-letter queue's URL is an output of the Data stack.
    const outputs = Object.values<any>(templateOf(s(), 'Data').toJSON().Outputs ?? {});
    const dlqIds = resourcesOfType(templateOf(s(), 'Data'), 'AWS::SQS::Queue')
      .filter(([, q]) => String(q.Properties!.QueueName).endsWith('-dlq'))
      .map(([id]) => id);
    expect(dlqIds.length).toBe(stage === 'sandbox' ? 6 : 5);
    for (const id of dlqIds)
      expect(
        outputs.some((o) => refTarget(o.Value) === id),
        `an output names ${id}`,
      ).toBe(true);
  });

  it('raises an alarm to the stage’s alarm topic whenever a dead-letter queue or the stream-failure queue holds anything', () => {
    const data = templateOf(s(), 'Data');
    const parked = resourcesOfType(data, 'AWS::SQS::Queue').filter(([, q]) => /-(dlq|stream-failures)$/.test(String(q.Properties!.QueueName)));
    expect(parked).toHaveLength(stage === 'sandbox' ? 7 : 6);
    const [[topicId, topic]] = resourcesOfType(data, 'AWS::SNS::Topic') as [[string, Resource]];
    expect(topic.Properties!.TopicName).toBe(`mor-${stage}-alarms`);
    const alarms = resourcesOfType(data, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
    expect(alarms).toHaveLength(parked.length);
    for (const [queueId, queue] of parked) {
      const on = alarms.filter((a) => a.Dimensions?.some((d: { Value: unknown }) => isDeepStrictEqual(d.Value, { 'Fn::GetAtt': [queueId, 'QueueName'] })));
      expect(on, String(queue.Properties!.QueueName)).toHaveLength(1);
      expect(on[0]).toMatchObject({
        AlarmName: `${queue.Properties!.QueueName}-not-empty`,
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Statistic: 'Maximum',
        Period: 60,
        Threshold: 1,
        EvaluationPeriods: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: topicId }],
      });
    }
    // No address given: the topic has no subscriber (an operator subscribes one, or deploys with -c alarmEmail=…).
    expect(resourcesOfType(data, 'AWS::SNS::Subscription')).toEqual([]);
  });

  it('has one on-demand table with the shared key schema, indexes, stream, TTL and point-in-time recovery', () => {
    expect(allOfType(s().templates, 'AWS::DynamoDB::Table')).toHaveLength(1);
    templateOf(s(), 'Data').hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: `mor-${stage}-main`,
      KeySchema: [
        { AttributeName: tableKeys.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableKeys.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
      GlobalSecondaryIndexes: globalIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
  });

  if (stage === 'live') {
    it('retains the live table on deletion and replacement, with deletion protection', () => {
      templateOf(s(), 'Data').hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
        Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
      });
    });
  } else {
    it('lets the sandbox table be deleted with its stack', () => {
      templateOf(s(), 'Data').hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Delete',
        Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
      });
    });
  }

  it(`${stage === 'live' ? 'retains' : 'deletes'} every queue and log group with its stack`, () => {
    const policy = stage === 'live' ? 'Retain' : 'Delete';
    for (const type of ['AWS::SQS::Queue', 'AWS::Logs::LogGroup']) {
      const found = allOfType(s().templates, type);
      expect(found.length).toBeGreaterThan(0);
      for (const { id, resource } of found) expect(resource.DeletionPolicy, id).toBe(policy);
    }
  });

  it('gives the webhook queue a dead-letter queue and a visibility timeout far above a 10 s send', () => {
    const resources = resourcesOf(templateOf(s(), 'Data'));
    const queue = resources[queueId(s(), `mor-${stage}-webhooks`)]!.Properties!;
    const dlqId = queueId(s(), `mor-${stage}-webhooks-dlq`);
    expect(refTarget(queue.RedrivePolicy?.deadLetterTargetArn)).toBe(dlqId);
    expect(queue.RedrivePolicy.maxReceiveCount).toBeGreaterThanOrEqual(1);
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(60);
    // The DLQ keeps a message at least as long as the queue did (SQS keeps the original enqueue time).
    expect(resources[dlqId]!.Properties!.MessageRetentionPeriod).toBeGreaterThanOrEqual(queue.MessageRetentionPeriod ?? 345_600);
  });

  it('outputs the API URL and the table name', () => {
    const api = templateOf(s(), 'Api').toJSON();
    expect(JSON.stringify(api.Outputs?.ApiUrl?.Value)).toContain('execute-api');
    const data = templateOf(s(), 'Data').toJSON();
    const tableId = resourcesOfType(templateOf(s(), 'Data'), 'AWS::DynamoDB::Table')[0]![0];
    expect(data.Outputs?.TableName?.Value).toEqual({ Ref: tableId });
  });

  it('serves the API from an auto-deployed $default stage with access logs', () => {
    templateOf(s(), 'Api').hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    templateOf(s(), 'Api').hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  it(`throttles every route of the stage at ${stage === 'live' ? '1,000 requests per second, bursts of 2,000' : '100 requests per second, bursts of 200'}`, () => {
    const expected = stage === 'live' ? { rate: 1000, burst: 2000 } : { rate: 100, burst: 200 };
    const stages = resourcesOfType(templateOf(s(), 'Api'), 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    expect(stages[0]![1].Properties!.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: expected.rate,
      ThrottlingBurstLimit: expected.burst,
    });
    // No route overrides the stage's limits.
    expect(stages[0]![1].Properties!.RouteSettings).toBeUndefined();
  });

  it("is synthesized with CDK's recommended feature flags (cdk.json), as `cdk synth` does", () => {
    const recommended = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules/aws-cdk-lib/recommended-feature-flags.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const cdkJson = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
    // The one deliberate exception: strong cross-stack references, so a stack still used cannot be deleted.
    const deliberate: Record<string, unknown> = { '@aws-cdk/core:defaultCrossStackReferences': 'strong' };
    for (const [flag, value] of Object.entries(recommended)) {
      expect(cdkJson.context[flag], flag).toEqual(flag in deliberate ? deliberate[flag] : value);
      expect(s().built.app.node.tryGetContext(flag), flag).toEqual(cdkJson.context[flag]);
    }
  });
});

describe('the tokenization host settings', () => {
  const reader = (values: Record<string, unknown>) => (key: string) => values[key];
  const live = { ...contexts.live, tokenizationDomain: 'tokens.test.example', tokenizationCertificateArn };

  it('give live a host without a custom domain by default, and sandbox none', () => {
    expect(stageConfig('live', reader(contexts.live), {}).tokenization).toEqual({
      apiName: 'mor-live-tokenization',
      throttle: { rateLimit: 50, burstLimit: 100 },
    });
    expect(stageConfig('sandbox', reader(contexts.sandbox), {}).tokenization).toBeUndefined();
  });

  it('take a custom domain with its certificate, both or neither, on live only', () => {
    expect(stageConfig('live', reader(live), {}).tokenization?.customDomain).toEqual({
      domainName: 'tokens.test.example',
      certificateArn: tokenizationCertificateArn,
    });
    expect(() => stageConfig('live', reader({ ...live, tokenizationCertificateArn: undefined }), {})).toThrow(/both .* or neither/);
    expect(() => stageConfig('live', reader({ ...live, tokenizationDomain: undefined }), {})).toThrow(/both .* or neither/);
    expect(() => stageConfig('sandbox', reader({ ...contexts.sandbox, tokenizationDomain: 'tokens.test.example' }), {})).toThrow(/no tokenization host/);
  });

  it("refuse a domain that is not a host name and a certificate that is not an ACM certificate of the stack's region", () => {
    expect(() => stageConfig('live', reader({ ...live, tokenizationDomain: 'https://tokens.test.example' }), {})).toThrow(/host name/);
    expect(() => stageConfig('live', reader({ ...live, tokenizationCertificateArn: 'arn:aws:iam::222222222222:role/x' }), {})).toThrow(/ACM certificate ARN/);
    expect(() =>
      stageConfig('live', reader({ ...live, tokenizationCertificateArn: tokenizationCertificateArn.replace('eu-central-1', 'us-east-1') }), {}),
    ).toThrow(/region eu-central-1/);
  });

  it(
    'serve the host only on its custom domain when one is set: domain name, mapping, no execute-api endpoint, URL and DNS target as outputs',
    () => {
      // Only the host's functions (bundled already by the live app above) and no main routes or consumers.
      const built = synthesize(
        'live',
        { ...contexts.live, tokenizationDomain: 'tokens.test.example', tokenizationCertificateArn },
        {
          outdir: outdir!,
          routes: [],
          consumers: [],
        },
      );
      const t = templateOf(built, 'Tokenization');
      const [[apiId, api]] = resourcesOfType(t, 'AWS::ApiGatewayV2::Api') as [[string, Resource]];
      expect(api.Properties!.DisableExecuteApiEndpoint).toBe(true);
      const [[domainId, domain]] = resourcesOfType(t, 'AWS::ApiGatewayV2::DomainName') as [[string, Resource]];
      expect(domain.Properties).toMatchObject({
        DomainName: 'tokens.test.example',
        DomainNameConfigurations: [expect.objectContaining({ CertificateArn: tokenizationCertificateArn, EndpointType: 'REGIONAL' })],
      });
      const [[, mapping]] = resourcesOfType(t, 'AWS::ApiGatewayV2::ApiMapping') as [[string, Resource]];
      expect(mapping.Properties).toMatchObject({ ApiId: { Ref: apiId }, DomainName: { Ref: domainId } });
      const outputs = t.toJSON().Outputs;
      expect(outputs.TokenizationUrl.Value).toBe('https://tokens.test.example');
      expect(outputs.TokenizationDomainTarget.Value).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
    },
    synthTimeout,
  );
});

describe('the alarm address', () => {
  it(
    'subscribes `alarmEmail` to the alarm topic by e-mail, and refuses what is not an address',
    () => {
      const built = synthesize('sandbox', { ...contexts.sandbox, alarmEmail: 'ops@pay.example.org' }, { outdir: outdir!, routes: [], consumers: [] });
      const data = templateOf(built, 'Data');
      const [[topicId]] = resourcesOfType(data, 'AWS::SNS::Topic') as [[string, Resource]];
      expect(resourcesOfType(data, 'AWS::SNS::Subscription').map(([, sub]) => sub.Properties)).toEqual([
        { Protocol: 'email', Endpoint: 'ops@pay.example.org', TopicArn: { Ref: topicId } },
      ]);
      const reader = (values: Record<string, unknown>) => (key: string) => values[key];
      expect(() => stageConfig('sandbox', reader({ ...contexts.sandbox, alarmEmail: 'not an address' }), {})).toThrow(/alarmEmail must be an e-mail address/);
    },
    synthTimeout,
  );
});

describe('the function bundles', () => {
  const execFileAsync = promisify(execFile);
  const routeList = routesFor('sandbox');
  const routeFunctions = () => routeList.map((route) => ({ route, fn: functionNamed(synthesized.sandbox, route.name)[0]!.resource as Resource }));
  /** The directory of the sandbox function `name`'s bundle, as synthesized (its assets beside it; no node_modules). */
  const bundleDir = (name: string) => bundleDirOf(outdir!, functionNamed(synthesized.sandbox, name)[0]!.resource as Resource);

  /**
   * Each of `calls` (a function's name and an event) given to the function's bundle, in turn, in one Node process of
   * their own with `env`, as Lambda runs them: what each handler answered.
   */
  async function invokeBundles(calls: ReadonlyArray<readonly [name: string, event: unknown]>, env: NodeJS.ProcessEnv = process.env): Promise<unknown[]> {
    const files = calls.map(([name, event]) => [path.join(bundleDir(name), 'index.mjs'), event]);
    const script = `
      const answers = [];
      for (const [file, event] of ${JSON.stringify(files)}) {
        const { handler } = await import('file://' + file);
        const context = { awsRequestId: crypto.randomUUID(), functionName: 'bundle', getRemainingTimeInMillis: () => 50000 };
        answers.push(await handler(event, context));
      }
      process.stdout.write('\\nanswers: ' + JSON.stringify(answers));`;
    // The functions log to stdout too: the answers are the last line.
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], { env, timeout: 50_000 });
    return JSON.parse(stdout.slice(stdout.lastIndexOf('\nanswers: ') + '\nanswers: '.length)) as unknown[];
  }

  it('are the same code on sandbox and live', () => {
    const live = new Set(routesFor('live'));
    for (const route of routeList.filter((r) => live.has(r))) {
      const code = (s: SynthesizedStage) => functionNamed(s, route.name)[0]!.resource.Properties!.Code.S3Key;
      expect(code(synthesized.live), route.name).toBe(code(synthesized.sandbox));
    }
  });

  it('are built by one esbuild build for all the functions of a stage, none on its own, and leave no build directory', () => {
    // The sandbox app builds every entry of its functions at once; the live app only those of its functions whose
    // bundling (entry and assets) sandbox has not had.
    const bundlingsOf = (stage: 'sandbox' | 'live') => {
      const defs = [
        ...routesFor(stage),
        ...(stage === 'live' ? routesFor('live', 'tokenization') : []),
        ...preflightRoutesOf(routesFor(stage)),
        ...consumersFor(stage),
      ];
      return defs.map((d) => ({ entry: d.handler, bundling: `${d.handler} ${JSON.stringify(('assets' in d && d.assets) || [])}` }));
    };
    const sandbox = bundlingsOf('sandbox');
    const sandboxBundlings = new Set(sandbox.map((b) => b.bundling));
    const liveOnly = new Set(
      bundlingsOf('live')
        .filter((b) => !sandboxBundlings.has(b.bundling))
        .map((b) => b.entry),
    );
    expect(functionBundleBuilds()).toEqual([
      { entries: new Set(sandbox.map((b) => b.entry)).size, together: true, xraySdk: false },
      ...(liveOnly.size ? [{ entries: liveOnly.size, together: true, xraySdk: false }] : []),
    ]);
    expect(readdirSync(outdir!).filter((d) => d.startsWith(bundleDirPrefix))).toEqual([]);
  });

  it('are minified ESM with the createRequire banner, a source map, and bundle their own route handler', () => {
    for (const { route, fn } of routeFunctions()) {
      const dir = bundleDirOf(outdir!, fn);
      // The bundle and its source map, and the files the route declares it reads at run time (`assets`), nothing else.
      const assets = (route.assets ?? []).map((a) => path.basename(a));
      expect(readdirSync(dir).sort(), route.name).toEqual(['index.mjs', 'index.mjs.map', ...assets].sort());
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      expect(code.slice(0, code.indexOf('\n')), route.name).toMatch(/^import \{ createRequire\b.*const require = /);
      // Template literals keep their line breaks (a page's or script's text served as is): judged without them.
      const logic = code.replace(/`(?:\\[\s\S]|[^`\\])*`/g, '``');
      expect(logic.length / logic.split('\n').length, `${route.name} is minified`).toBeGreaterThan(1000);
      const sources = sourcesIn(dir);
      expect(
        sources.map((source) => path.resolve(dir, source)),
        route.name,
      ).toContain(path.join(repoRoot, route.handler));
    }
  });

  it('include the AWS SDK (never left to the runtime), each package once and in one module format', () => {
    for (const { route, fn } of routeFunctions()) {
      const dir = bundleDirOf(outdir!, fn);
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      // An external SDK package would stay behind as an ES import (static or dynamic) of the runtime's copy.
      const external = /import[\w${}\s,*]*from\s*["']@(aws-sdk|smithy)\/[^"']+["']|import\(\s*["']@(aws-sdk|smithy)\/[^"']+["']\)/;
      expect(code.match(external)?.[0], `${route.name} imports the SDK from the runtime`).toBeUndefined();
      const sources = sourcesIn(dir);
      if (route.table !== 'none') {
        expect(
          sources.some((x) => x.includes('node_modules/@aws-sdk/client-dynamodb/')),
          `${route.name} bundles the SDK`,
        ).toBe(true);
      }
      expect(packagesBundledTwice(sources), route.name).toEqual([]);
    }
  });

  it("carry the bundling's stand-ins, never the modules they replace (infra/constructs/bundling.ts)", () => {
    const replaced = /node_modules\/(@smithy\/core\/dist-es\/submodules\/event-streams|mnemonist|@aws-sdk\/credential-provider-node)\//;
    for (const { route, fn } of routeFunctions()) {
      const sources = sourcesIn(bundleDirOf(outdir!, fn));
      expect(
        sources.filter((source) => replaced.test(source)),
        route.name,
      ).toEqual([]);
      if (route.table !== 'none')
        expect(
          sources.some((source) => source.endsWith('infra/constructs/lru-cache.ts')),
          route.name,
        ).toBe(true);
    }
  });

  it('are each no bigger than the floor (a minimal function as commonly built), but the two heavy by nature', async () => {
    // `npm run bench:bundles`' size goal, held here on every bundle of both stages.
    const { esbuildSettings } = await import('../../infra/constructs/bundling.ts');
    const { build } = await import('esbuild');
    const floor = await build({
      ...esbuildSettings({ xraySdk: false }),
      alias: {},
      absWorkingDir: repoRoot,
      entryPoints: [floorEntry],
      outfile: 'out/index.mjs',
      write: false,
      logLevel: 'silent',
    });
    const floorBytes = floor.outputFiles.find((f) => f.path.endsWith('index.mjs'))!.contents.byteLength;
    const over = new Set<string>();
    for (const s of [synthesized.sandbox, synthesized.live]) {
      const stage = s.built.config.stage;
      for (const def of [...routesFor(stage), ...consumersFor(stage)]) {
        for (const { resource } of functionNamed(s, def.name)) {
          const bytes = statSync(path.join(bundleDirOf(outdir!, resource), 'index.mjs')).size;
          if (bytes > floorBytes) over.add(`${def.handler}: ${bytes - floorBytes} bytes over`);
        }
      }
    }
    // The heavy ones are over it (so the check can fail), and only they are.
    expect(
      [...over].filter((o) => !heavyByNature[o.split(':')[0]!]),
      `the floor is ${floorBytes} bytes`,
    ).toEqual([]);
    expect([...over].map((o) => o.split(':')[0]).sort()).toEqual(Object.keys(heavyByNature).sort());
  });

  it('send no DynamoDB Scan from a route: a whole-table read is for operator commands, never behind a route', async () => {
    // The document client's commands come each from its own module (infra/constructs/lib-dynamodb.js), so its Scan
    // command is among a bundle's sources only when something in the bundle sends one.
    const scan = /node_modules\/@aws-sdk\/lib-dynamodb\/dist-es\/commands\/ScanCommand\.js$/;
    for (const { route, fn } of routeFunctions()) {
      expect(
        sourcesIn(bundleDirOf(outdir!, fn)).filter((source) => scan.test(source)),
        route.name,
      ).toEqual([]);
    }
    // The check can fail: the bundle of the module whose operator command reads the whole table has it.
    const { esbuildSettings } = await import('../../infra/constructs/bundling.ts');
    const { build } = await import('esbuild');
    const control = await build({
      ...esbuildSettings({ xraySdk: false }),
      absWorkingDir: repoRoot,
      entryPoints: ['shared/platform/db/listing.ts'],
      outfile: 'out/index.mjs',
      write: false,
      logLevel: 'silent',
    });
    const map = control.outputFiles.find((f) => f.path.endsWith('.map'))!;
    expect((JSON.parse(map.text) as { sources: string[] }).sources.filter((source) => scan.test(source))).toHaveLength(1);
  });

  it('detect a package bundled from two install locations or in two module formats', () => {
    const sources = [
      '../../node_modules/@smithy/core/dist-es/index.js',
      '../../node_modules/@smithy/core/dist-cjs/index.js',
      '../../node_modules/@aws-sdk/client-dynamodb/dist-es/index.js',
      '../../node_modules/a/node_modules/@aws-sdk/client-dynamodb/dist-es/index.js',
      '../../node_modules/semver/classes/range.js',
      '../../node_modules/semver/functions/satisfies.js',
      '../../functions/system/health.ts',
    ];
    expect(packagesBundledTwice(sources)).toEqual(['@smithy/core', '@aws-sdk/client-dynamodb']);
  });

  it('run on the local stack as deployed: a card payment through the transactions-create bundle, then listed by the transactions-list bundle', async () => {
    // The functions' environment of this run's stack (test/setup-env.ts), the bundles as synthesized: the SDK clients,
    // the document client's commands (infra/constructs/lib-dynamodb.js), the charge engine and the sandbox processor.
    const org = await organizationAccount('Bundled functions');
    const token = await cardToken(org);
    const sample = (name: string) => JSON.parse(readFileSync(path.join(repoRoot, 'events', `${name}.json`), 'utf8')) as Record<string, any>;
    const withKey = (event: Record<string, any>) => ({ ...event, headers: { ...event.headers, authorization: `ApiKey ${org.fullKey}` } });
    const body = JSON.stringify({
      idempotencyKey: `bundle-${org.organizationId}`,
      amount: 12.34,
      currency: 'USD',
      token,
      billingAddress: { country: 'US', region: 'NY' },
    });
    const createSample = sample('transactions-create');
    const create = withKey({ ...createSample, body, headers: { ...createSample.headers, 'content-length': String(body.length) } });
    const listSample = sample('transactions-list');
    const listPath = `/api/v1/public-api/organizations/${org.organizationId}/transactions`;
    const list = withKey({
      ...listSample,
      rawPath: listPath,
      pathParameters: { organizationId: org.organizationId },
      requestContext: { ...listSample.requestContext, http: { ...listSample.requestContext.http, path: listPath } },
    });
    const [created, listed] = (await invokeBundles([
      ['transactions-create', create],
      ['transactions-list', list],
    ])) as { statusCode: number; body: string }[];
    expect(created!.statusCode, created!.body).toBe(201);
    const payment = JSON.parse(created!.body).data;
    // New York's 4 % within 12.34: 0.4746… → 0.47.
    expect(payment).toMatchObject({ status: 'completed', amount: 12.34, currency: 'USD', tax: 0.47 });
    expect(listed!.statusCode, listed!.body).toBe(200);
    expect(JSON.parse(listed!.body).data.map((t: { id: string }) => t.id)).toEqual([payment.id]);
    // …with the document client's commands and none of the package index's paginators.
    const sources = sourcesIn(bundleDir('transactions-create'));
    expect(sources.some((source) => source.endsWith('@aws-sdk/lib-dynamodb/dist-es/commands/TransactWriteCommand.js'))).toBe(true);
    expect(sources.filter((source) => source.includes('@aws-sdk/lib-dynamodb/dist-es/pagination/'))).toEqual([]);
  }, 60_000);

  it('run on the local stack as deployed: the invoice PDF renderer bundle renders with the font beside it and stores the PDF', async () => {
    // The renderer carries pdf-lib and fontkit, and reads its font from the file the stack copies beside the bundle
    // (there is no node_modules beside a bundle here, as in Lambda): a customer invoice issued, its rendering by the
    // stack's own renderer deleted, then the bundle given the record the relay would carry.
    const org = await organizationAccount('Bundled PDFs');
    const invoices = `${orgPath(org.organizationId)}/customer-invoices`;
    const buyer = { name: 'Zoë Ångström', address: 'Hauptstraße 1', city: 'Berlin', country: 'DE', zip: '10115' };
    const draft = await orgCall('POST', invoices, {
      fullKey: org.fullKey,
      body: { currency: 'EUR', buyer, items: [{ description: 'Beratung', quantity: 1, unitPrice: 10, taxRate: 19 }] },
    });
    expect(draft.status, draft.text).toBe(201);
    const dates = { issuedAt: new Date().toISOString(), dueAt: new Date(Date.now() + 14 * 86_400_000).toISOString() };
    const issued = await orgCall('POST', `${invoices}/${draft.json.data.id}/issue`, { fullKey: org.fullKey, body: dates });
    expect(issued.status, issued.text).toBe(200);
    const item = (await db.send(new GetCommand({ TableName: tableName(), Key: invoiceKey(issued.json.data.id), ConsistentRead: true }))).Item!;
    const key = invoicePdfKey(org.organizationId, String(item.id), String(item.updatedAt));
    await expect.poll(() => storedInvoicePdf(key), { timeout: 20_000 }).not.toBeNull();
    await awsFetch('s3', s3Url(process.env.POLICY_BUCKET!, key), { method: 'DELETE' });
    expect(await storedInvoicePdf(key)).toBeNull();

    expect(readdirSync(bundleDir('invoicing-render-pdf'))).toContain('DejaVuSans.ttf');
    const record = { eventID: `bundle-${item.id}`, eventName: 'MODIFY', dynamodb: { Keys: marshall(invoiceKey(String(item.id))), NewImage: marshall(item) } };
    const event = { Records: [{ messageId: `m-${item.id}`, body: JSON.stringify(record) }] };
    expect(await invokeBundles([['invoicing-render-pdf', event]])).toEqual([{ batchItemFailures: [] }]);
    const pdf = await storedInvoicePdf(key);
    const text = (await extractText(await getDocumentProxy(pdf!), { mergePages: true })).text;
    expect(text).toContain(issued.json.data.number);
    expect(text).toContain('Zoë Ångström');
  }, 60_000);

  it('run on the local stack as deployed: the mail sender bundle reads the SES sending rate, then sends through SES', async () => {
    // SES is a stand-in on loopback that records what it is asked; the mail is one only this test sends (an entity the
    // stack's relay does not carry), in the record the relay would have carried.
    const asked: Array<{ method: string; url: string; signed: boolean; body: string }> = [];
    const ses = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        asked.push({ method: req.method!, url: req.url!, signed: String(req.headers.authorization).startsWith('AWS4-HMAC-SHA256 '), body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url === '/v2/email/account' ? { SendQuota: { MaxSendRate: 14 } } : { MessageId: 'm-1' }));
      });
    });
    await new Promise<void>((resolve) => ses.listen(0, '127.0.0.1', resolve));
    try {
      const mail: OutgoingMail = {
        id: randomUUID(),
        to: 'owner@bundled.example',
        template: 'webhooks.circuit-opened',
        data: { merchantName: 'Bundled shop', destinationId: 'wd_bundled', host: 'hooks.bundled.example', failures: 5 },
        at: '2027-03-01T09:00:00.000Z',
        createdAt: new Date().toISOString(),
        sentAt: null,
      };
      const item = { ...OutgoingMailEntity.item(mail), entity: 'outgoingMailUnrelayed' };
      await db.send(new PutCommand({ TableName: tableName(), Item: item }));
      const record = { eventID: mail.id, eventName: 'INSERT', dynamodb: { Keys: marshall(outgoingMailKey(mail.id)), NewImage: marshall(item) } };
      const env = {
        ...process.env,
        MAIL_FROM: 'no-reply@bundled.example',
        MAIL_SENDERS_AT_ONCE: '2',
        AWS_ENDPOINT_URL_SESV2: `http://127.0.0.1:${(ses.address() as AddressInfo).port}`,
      };
      const event = { Records: [{ messageId: `m-${mail.id}`, body: JSON.stringify(record) }] };
      expect(await invokeBundles([['mail-sender', event]], env)).toEqual([{ batchItemFailures: [] }]);
      expect(asked.map(({ method, url, signed }) => [method, url, signed])).toEqual([
        ['GET', '/v2/email/account', true],
        ['POST', '/v2/email/outbound-emails', true],
      ]);
      expect(JSON.parse(asked[1]!.body)).toMatchObject({
        FromEmailAddress: 'no-reply@bundled.example',
        Destination: { ToAddresses: ['owner@bundled.example'] },
        Content: { Simple: { Subject: { Data: 'Webhook deliveries to hooks.bundled.example are paused' } } },
      });
      const taken = await db.send(new GetCommand({ TableName: tableName(), Key: outgoingMailKey(mail.id), ConsistentRead: true }));
      expect(taken.Item?.sentAt).toEqual(expect.any(String));
    } finally {
      await new Promise<void>((resolve) => ses.close(() => resolve()));
    }
  }, 60_000);

  it('run on the local stack as deployed: the webhook sender bundle reads its signing key from Secrets Manager and delivers one signed POST', async () => {
    // The key is a secret the function reads by its ARN: Secrets Manager is a stand-in on loopback that answers the
    // local stack's key under the deployed stage's ARN and records the call. The event is carried in the message, as
    // the fan-out queues it; the receiver is on loopback (allowed for this run only).
    const org = await organizationAccount('Bundled webhooks');
    const receiver = await startReceiver();
    const destination = await createMerchantDestination((await getMerchant(org.organizationId))!, { url: receiver.url, eventTypes: ['payment.completed'] });
    const key = await getSecretString(process.env.WEBHOOK_SIGNING_KEY_ARN!);
    const asked: Array<{ target: string; signed: boolean; body: string }> = [];
    const secrets = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        asked.push({ target: String(req.headers['x-amz-target']), signed: String(req.headers.authorization).startsWith('AWS4-HMAC-SHA256 '), body });
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ SecretString: key }));
      });
    });
    await new Promise<void>((resolve) => secrets.listen(0, '127.0.0.1', resolve));
    try {
      const occurredAt = new Date().toISOString();
      const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
      const payload = JSON.stringify({ id: eventId, type: 'payment.completed', data: samplePayload('payment.completed', org.organizationId, occurredAt) });
      const message = {
        eventId,
        destinationMerchantId: org.organizationId,
        destinationId: destination.id,
        event: { type: 'payment.completed', merchantId: org.organizationId, occurredAt, body: payload },
      };
      const arn = 'arn:aws:secretsmanager:eu-west-1:111111111111:secret:mor-sandbox-webhook-signing-key';
      const env = {
        ...process.env,
        WEBHOOK_SIGNING_KEY_ARN: arn,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(secrets.address() as AddressInfo).port}`,
        WEBHOOK_ALLOW_LOOPBACK: '1',
      };
      const event = { Records: [{ messageId: `m-${eventId}`, body: JSON.stringify(message) }] };
      expect(await invokeBundles([['webhook-sender', event]], env)).toEqual([{ batchItemFailures: [] }]);
      expect(asked).toEqual([{ target: 'secretsmanager.GetSecretValue', signed: true, body: JSON.stringify({ SecretId: arn }) }]);
      expect(receiver.received).toHaveLength(1);
      const [post] = receiver.received;
      expect(post!.rawBody.toString('utf8')).toBe(payload);
      expect(verifyWebhook({ rawBody: post!.rawBody, headers: post!.headers, secret: destination.secret, toleranceSeconds: 300 })).toMatchObject({ ok: true });
      const record = (await listDeliveries(destination.id, 10)).items.find((d: Delivery) => d.eventId === eventId);
      expect(record).toMatchObject({ status: 'succeeded', httpStatus: 200 });
    } finally {
      await new Promise<void>((resolve) => secrets.close(() => resolve()));
      await receiver.close();
    }
  }, 60_000);

  it('load as ES modules under Node and export a handler, consumers too', async () => {
    const env = {
      PATH: process.env.PATH,
      STAGE: 'sandbox',
      TABLE_NAME: 'mor-sandbox-main',
      DASHBOARD_URL: contexts.sandbox.dashboardUrl,
      AWS_REGION: 'eu-west-1',
      AWS_EC2_METADATA_DISABLED: 'true',
      POWERTOOLS_SERVICE_NAME: 'mor',
      POWERTOOLS_METRICS_NAMESPACE: 'Mor/Sandbox',
      // The relay reads its routes as it loads: the stack's, to queues of this account.
      STREAM_RELAY_ROUTES: JSON.stringify(
        relayRoutesOf(
          consumersFor('sandbox').find((c) => c.name === 'stream-relay') as StreamConsumerDef,
          (q) => `https://sqs.eu-west-1.amazonaws.com/111111111111/${q}`,
        ),
      ),
    };
    // One Node process imports every bundle in turn (each route's and each consumer's) and reports what each one
    // exports as `handler`.
    const files = [
      ...routeFunctions().map(({ route, fn }) => [route.name, fn] as const),
      ...consumersFor('sandbox').map((c) => [c.name, functionNamed(synthesized.sandbox, c.name)[0]!.resource as Resource] as const),
    ].map(([name, fn]) => [name, path.join(bundleDirOf(outdir!, fn), 'index.mjs')] as const);
    for (const [, file] of files) expect(existsSync(file), file).toBe(true);
    const script = `
      const files = ${JSON.stringify(files)};
      const loaded = {};
      for (const [name, file] of files) {
        try { loaded[name] = typeof (await import('file://' + file)).handler; } catch (e) { loaded[name] = String(e); }
      }
      process.stdout.write(JSON.stringify(loaded));`;
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], { env, timeout: 50_000 });
    expect(JSON.parse(stdout)).toEqual(Object.fromEntries(files.map(([name]) => [name, 'function'])));
  }, 60_000);
});

describe.each(['sandbox', 'live'] as const)('merchant funds on the %s app', (stage) => {
  const consumers = consumersFor(stage);
  const s = () => synthesized[stage];

  it(`${stage === 'live' ? 'does not route' : 'routes'} the sandbox payout advance, and routes the balance summary, payout methods and payouts`, () => {
    const routeKeys = new Set(allOfType(s().templates, 'AWS::ApiGatewayV2::Route').map((r) => r.resource.Properties?.RouteKey));
    const merchant = '/api/v1/public-api/merchants/{merchantId}';
    expect(routeKeys.has(`POST ${merchant}/payouts/{withdrawalId}/advance`)).toBe(stage === 'sandbox');
    expect(functionNamed(s(), 'merchant-payouts-advance')).toHaveLength(stage === 'sandbox' ? 1 : 0);
    const org = '/api/v1/public-api/organizations/{organizationId}';
    for (const key of [
      `GET ${merchant}/balances/summary`,
      `GET ${merchant}/payouts/payout-methods`,
      `POST ${merchant}/payouts`,
      `GET ${org}/payout-methods`,
      `POST ${org}/payout-methods`,
      `DELETE ${org}/payout-methods/{payoutMethodId}`,
    ]) {
      expect(routeKeys.has(key), key).toBe(true);
    }
  });

  it('releases held funds hourly, reconciles every 5 minutes and sweeps due subscriptions every minute: one EventBridge rule per scheduled function, which may read and write the table', () => {
    const release = consumers.find((c) => c.name === 'ledger-release-funds')!;
    expect(release).toMatchObject({ source: 'schedule', schedule: 'rate(1 hour)' });
    const reconciler = consumers.find((c) => c.name === 'payments-reconcile')!;
    expect(reconciler).toMatchObject({ source: 'schedule', schedule: 'rate(5 minutes)' });
    const sweeper = consumers.find((c) => c.name === 'subscriptions-sweep')!;
    expect(sweeper).toMatchObject({ source: 'schedule', schedule: 'rate(1 minute)', sendsTo: ['renewals'] });
    for (const c of [release, reconciler, sweeper]) expectConsumerWired(s(), c);
    const rules = resourcesOfType(templateOf(s(), 'Consumers'), 'AWS::Events::Rule');
    expect(rules.map(([, r]) => r.Properties!.ScheduleExpression).sort()).toEqual(['rate(1 hour)', 'rate(1 minute)', 'rate(5 minutes)']);
    for (const [, rule] of rules) {
      expect(rule.Properties!.Targets).toHaveLength(1);
      expect(rule.Properties!.Targets[0].RetryPolicy).toMatchObject({ MaximumRetryAttempts: 2 });
    }
  });
});

describe('what the function bundles leave out', () => {
  const sourcesOf = (fn: Resource) => sourcesIn(bundleDirOf(outdir!, fn));
  const xraySdk = /node_modules\/aws-xray-sdk-core\//;
  const credentialChain =
    /node_modules\/@aws-sdk\/(credential-provider-(node|sso|ini|process|web-identity|login|http)|nested-clients|client-sso|client-sts|token-providers)\/|node_modules\/@smithy\/credential-provider-imds\//;
  const dynamodbClient = /node_modules\/@aws-sdk\/client-dynamodb\//;

  it('carry the X-Ray SDK only where tracing with it is on, and never the SSO/STS/ini credential chain', () => {
    const fns = allOfType(synthesized.sandbox.templates, 'AWS::Lambda::Function');
    expect(fns.length).toBeGreaterThan(100);
    for (const { id, resource } of fns) {
      const sources = sourcesOf(resource);
      const tracesWithSdk = resource.Properties!.Environment?.Variables?.MOR_XRAY_SDK === 'true';
      expect(
        sources.some((x) => xraySdk.test(x)),
        `${id} bundles the X-Ray SDK`,
      ).toBe(tracesWithSdk);
      expect(
        sources.filter((x) => credentialChain.test(x)),
        id,
      ).toEqual([]);
    }
  });

  it('give health and openapi (no authentication) no DynamoDB client and no authenticator', () => {
    for (const name of ['health', 'openapi']) {
      const sources = sourcesOf(functionNamed(synthesized.sandbox, name)[0]!.resource);
      expect(
        sources.filter((x) => dynamodbClient.test(x) || /shared\/(db|services)\//.test(x)),
        name,
      ).toEqual([]);
    }
  });

  it("give a function its own auth kind's authenticator and none of the others", () => {
    // products-get is an organization-key route: no session, merchant-key or client-token authentication in it.
    const sources = sourcesOf(functionNamed(synthesized.sandbox, 'products-get')[0]!.resource);
    expect(sources.some((x) => x.endsWith('shared/organizations/accounts.service.ts'))).toBe(true);
    expect(sources.filter((x) => /shared\/services\/(people|api-keys|client-tokens)\.ts$/.test(x))).toEqual([]);
  });

  it('bundle the X-Ray SDK when tracing with it is turned on, and the environment credential provider instead of the chain', async () => {
    const { build } = await import('esbuild');
    const { esbuildSettings } = await import('../../infra/constructs/bundling.ts');
    const inputsOf = async (xray: boolean, entry: string) =>
      Object.keys(
        (
          await build({
            ...esbuildSettings({ xraySdk: xray }),
            absWorkingDir: repoRoot,
            entryPoints: [path.join(repoRoot, entry)],
            write: false,
            outdir: 'out',
            metafile: true,
            logLevel: 'silent',
          })
        ).metafile.inputs,
      );
    const traced = await inputsOf(true, 'functions/system/health.ts');
    expect(traced.some((x) => xraySdk.test(x))).toBe(true);
    const floor = await inputsOf(false, 'test/bench/floor-handler.ts');
    expect(floor.some((x) => /node_modules\/@aws-sdk\/credential-provider-env\//.test(x))).toBe(true);
    expect(floor.filter((x) => credentialChain.test(x))).toEqual([]);
  }, 60_000);
});
