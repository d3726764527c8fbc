/**
 * Stage configuration, names and the guards of the app and function construct. Nothing here bundles code.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { buildApp } from '../../infra/app.ts';
import { functionNameFor, parseStage, stageConfig, stages, tableNameFor } from '../../infra/config.ts';
import { defaultSettings, localEnv } from '../../infra/local/settings.ts';
import { sellerOfRecordFor } from '../../infra/seller-of-record.ts';
import { sellerOfRecord, sellerOfRecordEnvironment } from '../../shared/platform/seller-of-record.ts';
import { LambdaFunction, localOnlySetting } from '../../infra/constructs/lambda-function.ts';
import { routeList, type RouteDef } from '../../shared/routes/index.ts';
import type { ConsumerDef } from '../../infra/consumers.ts';
import { removeOutdir, tempOutdir } from './synth.ts';

const context = (values: Record<string, unknown>) => (key: string) => values[key];
/** What a live synthesis must be given: its account, region and domain. */
const liveTarget = { account: '222222222222', region: 'eu-central-1', domain: 'pay.example.org' };

// Apps write their cloud assembly somewhere: into one temporary folder, removed afterwards.
const outdir = tempOutdir();
afterAll(() => removeOutdir(outdir));

describe('stage selection', () => {
  it('accepts sandbox and live', () => {
    expect(parseStage('sandbox')).toBe('sandbox');
    expect(parseStage('live')).toBe('live');
  });

  it.each([undefined, '', 'prod', 'production', 'Sandbox', 'test'])('refuses the stage %j with a message naming the choices', (stage) => {
    expect(() => parseStage(stage)).toThrow(/--context stage=sandbox or --context stage=live/);
  });

  it('refuses to build an app for an unknown stage', () => {
    expect(() => buildApp('prod', {}, { outdir })).toThrow(/Unknown stage "prod"/);
  });
});

describe('derived names', () => {
  it('names the table after the stage, for the operator CLI to find', () => {
    expect(tableNameFor('sandbox')).toBe('mor-sandbox-main');
    expect(tableNameFor('live')).toBe('mor-live-main');
    expect(stageConfig('live', context(liveTarget), {}).tableName).toBe('mor-live-main');
  });

  it("names functions <prefix>-<definition name> within Lambda's 64 characters", () => {
    expect(functionNameFor('sandbox', 'merchants-create')).toBe('mor-sandbox-merchants-create');
    expect(() => functionNameFor('sandbox', 'x'.repeat(60))).toThrow(/64/);
    expect(() => functionNameFor('live', 'bad name')).toThrow();
    for (const route of routeList) expect(functionNameFor('sandbox', route.name).length).toBeLessThanOrEqual(64);
  });
});

describe('stage configuration', () => {
  it('takes account and region from context first', () => {
    const config = stageConfig('sandbox', context({ account: '111111111111', region: 'eu-west-1' }), {
      CDK_DEFAULT_ACCOUNT: '999999999999',
      CDK_DEFAULT_REGION: 'us-east-1',
    });
    expect(config.env).toEqual({ account: '111111111111', region: 'eu-west-1' });
  });

  it('falls back to CDK_DEFAULT_ACCOUNT / CDK_DEFAULT_REGION on sandbox, and otherwise stays environment-agnostic', () => {
    expect(stageConfig('sandbox', context({}), { CDK_DEFAULT_ACCOUNT: '999999999999', CDK_DEFAULT_REGION: 'us-east-1' }).env).toEqual({
      account: '999999999999',
      region: 'us-east-1',
    });
    expect(stageConfig('sandbox', context({}), {}).env).toEqual({ account: undefined, region: undefined });
  });

  it('refuses a malformed account or region', () => {
    expect(() => stageConfig('live', context({ ...liveTarget, account: '1234' }), {})).toThrow(/12-digit/);
    expect(() => stageConfig('live', context({ ...liveTarget, region: 'Europe' }), {})).toThrow(/region/);
    expect(() => stageConfig('sandbox', context({ account: '1234' }), {})).toThrow(/12-digit/);
  });

  it('retains and protects live, lets sandbox be destroyed, and keeps point-in-time recovery on both', () => {
    const live = stageConfig('live', context(liveTarget), {});
    const sandbox = stageConfig('sandbox', context({}), {});
    expect(live).toMatchObject({ removalPolicy: RemovalPolicy.RETAIN, deletionProtection: true, pointInTimeRecovery: true, terminationProtection: true });
    expect(sandbox).toMatchObject({ removalPolicy: RemovalPolicy.DESTROY, deletionProtection: false, pointInTimeRecovery: true, terminationProtection: false });
    expect(live.logRetention).toBe(RetentionDays.ONE_YEAR);
    expect(sandbox.logRetention).toBe(RetentionDays.ONE_MONTH);
  });

  it('derives a dashboard URL and sender per stage unless given, without a trailing slash', () => {
    expect(stageConfig('live', context(liveTarget), {})).toMatchObject({
      dashboardUrl: 'https://dashboard.pay.example.org',
      mailFrom: 'no-reply@pay.example.org',
    });
    expect(stageConfig('sandbox', context({}), {}).dashboardUrl).toBe('https://dashboard.sandbox.mor.example.com');
    expect(stageConfig('sandbox', context({ domain: 'pay.example.org' }), {}).dashboardUrl).toBe('https://dashboard.sandbox.pay.example.org');
    const explicit = { account: '222222222222', region: 'eu-central-1', dashboardUrl: 'https://app.example.org/', mailFrom: 'ops@example.org' };
    expect(stageConfig('live', context(explicit), {})).toMatchObject({ dashboardUrl: 'https://app.example.org', mailFrom: 'ops@example.org' });
  });

  it('names the platform as seller of record of each stage: one legal entity with its address and VAT number, a phone on live only', () => {
    const live = stageConfig('live', context(liveTarget), {}).sellerOfRecord;
    expect(live).toEqual({
      name: 'MoR Payments Platform Ltd',
      address: '10 Ledger Street',
      city: 'London',
      zip: 'EC2A 4BX',
      state: null,
      country: 'GB',
      phoneNumber: '+44 20 7946 0958',
      taxNumber: { type: 'vat', value: 'GB123456789' },
    });
    expect(stageConfig('sandbox', context({}), {}).sellerOfRecord).toEqual({ ...live, phoneNumber: null });
  });

  it('lets a function read back the seller of record the stacks and the local stack give it, and refuses one without a name', () => {
    const saved = { ...process.env };
    const readBack = (env: Record<string, string>) => {
      for (const key of Object.keys(process.env)) if (key.startsWith('SELLER_OF_RECORD_')) delete process.env[key];
      Object.assign(process.env, env);
      return sellerOfRecord();
    };
    try {
      for (const stage of stages) {
        const seller = stageConfig(stage, context(liveTarget), {}).sellerOfRecord;
        expect(readBack(sellerOfRecordEnvironment(seller)), stage).toEqual(seller);
        const local = Object.fromEntries(Object.entries(localEnv(defaultSettings, { STAGE: stage })).filter(([key]) => key.startsWith('SELLER_OF_RECORD_')));
        expect(local, stage).toEqual(sellerOfRecordEnvironment(seller));
      }
      const { SELLER_OF_RECORD_NAME: _, ...nameless } = sellerOfRecordEnvironment(sellerOfRecordFor('live'));
      expect(() => readBack(nameless)).toThrow(/SELLER_OF_RECORD_NAME/);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  it('lets a sandbox synthesize with placeholders when nothing is given', () => {
    const sandbox = stageConfig('sandbox', context({}), {});
    expect(sandbox).toMatchObject({ dashboardUrl: 'https://dashboard.sandbox.mor.example.com', mailFrom: 'no-reply@mor.example.com' });
  });

  it.each([
    ['account', { region: 'eu-central-1', domain: 'pay.example.org' }, /missing: account \(-c account=/],
    ['region', { account: '222222222222', domain: 'pay.example.org' }, /missing: region \(-c region=/],
    ['domain', { account: '222222222222', region: 'eu-central-1' }, /missing: dashboardUrl .* or domain .*; mailFrom .* or domain/],
    ['mailFrom', { account: '222222222222', region: 'eu-central-1', dashboardUrl: 'https://app.example.org' }, /missing: mailFrom \(-c mailFrom=/],
    ['dashboardUrl', { account: '222222222222', region: 'eu-central-1', mailFrom: 'ops@example.org' }, /missing: dashboardUrl \(-c dashboardUrl=/],
  ])('refuses to synthesize live without %s, naming it', (_missing, given, message) => {
    expect(() => stageConfig('live', context(given), {})).toThrow(message);
  });

  it("refuses live with only the CLI's credentials-derived account and region, and names all that is missing at once", () => {
    const error = (() => {
      try {
        stageConfig('live', context({}), { CDK_DEFAULT_ACCOUNT: '999999999999', CDK_DEFAULT_REGION: 'us-east-1' });
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    for (const name of ['account', 'region', 'dashboardUrl', 'mailFrom', 'domain']) expect(error).toContain(name);
    expect(() => buildApp('live', { account: '222222222222' }, { outdir, processEnv: {} })).toThrow(/live stage needs its own target/);
  });

  it('throttles live at 1,000 requests per second (bursts of 2,000) and sandbox at 100 (bursts of 200)', () => {
    expect(stageConfig('live', context(liveTarget), {}).apiThrottle).toEqual({ rateLimit: 1000, burstLimit: 2000 });
    expect(stageConfig('sandbox', context({}), {}).apiThrottle).toEqual({ rateLimit: 100, burstLimit: 200 });
  });

  it.each(['http://dashboard.example.org', 'https://localhost:3000', 'https://127.0.0.1', 'not a url'])(
    'refuses the dashboard URL %s for a deployed stage',
    (dashboardUrl) => {
      expect(() => stageConfig('sandbox', context({ dashboardUrl }), {})).toThrow(/dashboardUrl/);
    },
  );
});

describe('the definitions the app accepts', () => {
  const route = routeList[0]!;

  it('refuses two definitions with one function name', () => {
    const twin: RouteDef = { ...route, path: '/api/twin' };
    expect(() => buildApp('sandbox', {}, { routes: [route, twin], consumers: [], outdir })).toThrow(/Duplicate function name/);
  });

  it('refuses two routes with one route key', () => {
    const twin: RouteDef = { ...route, name: 'twin' };
    expect(() => buildApp('sandbox', {}, { routes: [route, twin], consumers: [], outdir })).toThrow(/Duplicate route/);
  });

  it('refuses a third reader of the table stream, which DynamoDB Streams would throttle', () => {
    const reader = (name: string): ConsumerDef => ({
      name,
      handler: 'test/infra/fixtures/consumer.ts',
      source: 'tableStream',
      entities: ['event'],
      batchSize: 10,
      table: 'read',
    });
    expect(() => buildApp('sandbox', {}, { routes: [route], consumers: [reader('a'), reader('b'), reader('c')], outdir })).toThrow(
      /At most 2 functions may read the table's stream, not 3 \(a, b, c\)/,
    );
  });

  it('refuses checkout routes spread over two groups, which would deploy their CORS preflight route twice', () => {
    const a: RouteDef = { ...route, name: 'checkout-a', face: 'checkout', path: '/api/v1/checkout/a', group: 'checkout' };
    const b: RouteDef = { ...route, name: 'checkout-b', face: 'checkout', path: '/api/v1/checkout/b', group: 'catalog' };
    expect(() => buildApp('sandbox', {}, { routes: [a, b], consumers: [], outdir })).toThrow(/CORS faces must share one group/);
  });
});

describe('the function construct', () => {
  const config = stageConfig('sandbox', context({}), {});
  const table = () => {
    const stack = new Stack(new App({ outdir }), 'Test');
    return { stack, table: new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } }) };
  };

  it.each([
    ['AWS_ENDPOINT_URL', 'http://example.org'],
    ['AWS_ENDPOINT_URL_DYNAMODB', 'http://example.org'],
    ['WEBHOOK_ALLOW_LOOPBACK', 'true'],
    ['CARD_FINGERPRINT_KEY', 'a development key'],
    ['LIVE_USES_SANDBOX_PROCESSOR', '1'],
    ['PASSWORD_HASH_COST', '10'],
    ['SOME_URL', 'http://localhost:8000'],
    ['SOME_URL', 'http://127.0.0.1:9324/queue'],
  ])('refuses the local-only setting %s=%s', (key, value) => {
    expect(localOnlySetting(key, value)).toBe(true);
    const { stack, table: t } = table();
    expect(
      () =>
        new LambdaFunction(stack, 'Fn', {
          config,
          name: 'health',
          entry: routeList[0]!.handler,
          timeout: Duration.seconds(10),
          table: t,
          tableAccess: 'none',
          environment: { [key]: value },
        }),
    ).toThrow(/local-only/);
  });

  it('accepts ordinary settings', () => {
    expect(localOnlySetting('WEBHOOK_QUEUE_URL', 'https://sqs.eu-west-1.amazonaws.com/111111111111/mor-live-webhooks')).toBe(false);
    expect(localOnlySetting('DASHBOARD_URL', 'https://dashboard.example.org')).toBe(false);
  });
});

describe('the app run as `cdk synth` runs it', () => {
  it('prints a live stage without its target as one clear line, no stack trace, and fails', async () => {
    const { execFile } = await import('node:child_process');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        'node_modules/.bin/tsx',
        ['infra/app.ts'],
        { env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ stage: 'live' }), CDK_OUTDIR: outdir } },
        (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Cannot synthesize: The live stage needs its own target, not defaults or placeholders; missing: account/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
