/**
 * The one Lambda function construct of the platform: every route and consumer function is built here with
 * the same fixed defaults, so no stack ever configures a `NodejsFunction` by hand.
 *
 * Defaults: Node.js 22 on arm64, X-Ray tracing (active: Lambda records every invocation), an explicit log group
 * with the stage's retention, 512 MB, and bundling by esbuild's API inside the synthesizing process (never Docker,
 * never a process per function) with the settings of `bundling.ts`: `index.mjs` and its source map, the asset hashed
 * from that output. The functions an app plans (`function-bundles.ts`) are bundled by one esbuild build for them all;
 * a function built apart gets the very same bytes. Bundling prints nothing but esbuild's own warnings
 * (`withoutBundlingNotices`), so `cdk synth -q` is quiet. The AWS SDK v3 is bundled and the runtime's copy is never
 * imported, so a function runs exactly the SDK version the tests ran against.
 *
 * The X-Ray SDK inside the function (a subsegment per AWS call, through the Powertools tracer) is a deploy-time
 * option, off by default: `cdk deploy -c xraySdk=true` bundles it into every function and sets `MOR_XRAY_SDK`;
 * without it the bundles carry no X-Ray SDK at all (see `shared/platform/observability.ts`).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { CfnResource, Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { copyFileSync } from 'node:fs';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Architecture, Code, Function as LambdaFn, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { StageConfig } from '../config.ts';
import { functionNameFor } from '../config.ts';
import type { TableAccess } from '../../shared/routes/index.ts';
import { writeFunctionBundle } from './function-bundles.ts';

/** Root of the repository: handler entry files are relative to it. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const defaultMemorySize = 512;

/** The CDK context key that bundles the X-Ray SDK into every function (`-c xraySdk=true`); off by default. */
export const xraySdkContext = 'xraySdk';

export interface LambdaFunctionProps {
  readonly config: StageConfig;
  /** Definition name (route or consumer); the function is named `<prefix>-<name>`. */
  readonly name: string;
  /** Entry file, relative to the repository root. */
  readonly entry: string;
  readonly timeout: Duration;
  readonly memorySize?: number;
  readonly description?: string;
  readonly table: ITable;
  readonly tableAccess: TableAccess;
  /** Extra environment on top of the common one. */
  readonly environment?: Readonly<Record<string, string>>;
  /** The webhook signing key, for functions that sign webhooks: readable, and named in the environment. */
  readonly webhookSigningKey?: ISecret;
  /** The card fingerprint key, for functions that tokenize cards: readable, and named in the environment. */
  readonly cardFingerprintKey?: ISecret;
  /** Files (repository-relative) copied next to the bundle, for code that reads them at run time (a PDF font). */
  readonly assets?: readonly string[];
}

export class LambdaFunction extends Construct {
  readonly function: LambdaFn;
  readonly logGroup: LogGroup;
  readonly functionName: string;

  constructor(scope: Construct, id: string, props: LambdaFunctionProps) {
    super(scope, id);
    const { config } = props;
    this.functionName = functionNameFor(config.stage, props.name);
    const xraySdk = String(this.node.tryGetContext(xraySdkContext) ?? 'false') === 'true';

    const environment: Record<string, string> = {
      TABLE_NAME: config.tableName,
      STAGE: config.stage,
      DASHBOARD_URL: config.dashboardUrl,
      POWERTOOLS_SERVICE_NAME: config.powertools.serviceName,
      POWERTOOLS_METRICS_NAMESPACE: config.powertools.metricsNamespace,
      NODE_OPTIONS: '--enable-source-maps',
      ...(props.webhookSigningKey ? { WEBHOOK_SIGNING_KEY_ARN: props.webhookSigningKey.secretArn } : {}),
      ...(props.cardFingerprintKey ? { CARD_FINGERPRINT_KEY_ARN: props.cardFingerprintKey.secretArn } : {}),
      ...(xraySdk ? { MOR_XRAY_SDK: 'true' } : {}),
      ...props.environment,
    };
    assertDeployableEnvironment(this, environment);

    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/lambda/${this.functionName}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });

    // The code is bundled (by CDK, calling `bundledCode`'s local bundling) while the function is constructed.
    this.function = withoutBundlingNotices(
      () =>
        new LambdaFn(this, 'Function', {
          functionName: this.functionName,
          description: props.description,
          code: bundledCode(this, props.entry, xraySdk, props.assets ?? []),
          handler: 'index.handler',
          runtime: Runtime.NODEJS_22_X,
          architecture: Architecture.ARM_64,
          memorySize: props.memorySize ?? defaultMemorySize,
          timeout: props.timeout,
          tracing: Tracing.ACTIVE,
          logGroup: this.logGroup,
          environment,
        }),
    );

    // A stable, readable logical id (`MerchantsCreateFunction`) for `sam local invoke` and for operators.
    (this.function.node.defaultChild as CfnResource).overrideLogicalId(`${pascalCase(props.name)}Function`);

    grantTableAccess(props.table, this.function, props.tableAccess);
    props.webhookSigningKey?.grantRead(this.function);
    props.cardFingerprintKey?.grantRead(this.function);
  }
}

/**
 * The code of a function: `entry` (repository-relative) bundled by esbuild's API in this process into `index.mjs`
 * (and its map), from the app's one build of its planned functions or built on its own (`writeFunctionBundle`), with
 * `assets` copied beside it; the asset is hashed from that output, so an unchanged bundle is never uploaded again.
 * The CDK's asset cache keys on the serializable options only: the entry rides in them (as the never-used Docker
 * command), so two functions never share a bundle.
 */
function bundledCode(scope: Construct, entry: string, xraySdk: boolean, assets: readonly string[]): Code {
  return Code.fromAsset(repoRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('local-esbuild'),
      command: ['esbuild', entry, ...assets],
      local: {
        tryBundle(outputDir) {
          writeFunctionBundle(scope, entry, { xraySdk }, assets, outputDir);
          for (const file of assets) copyFileSync(path.join(repoRoot, file), path.join(outputDir, path.basename(file)));
          return true;
        },
      },
    },
  });
}

/** The line CDK writes to stderr before it bundles an asset: `Bundling asset Mor-Sandbox-System/Health/Function/Code/Stage...`. */
export const bundlingNotice = /^Bundling asset \S+\.\.\.\r?\n?$/;

/**
 * Runs `construct` without CDK's "Bundling asset …" line on stderr. CDK writes it for every bundled asset whatever the
 * CLI's `--quiet`, which the app is never told; here bundling is esbuild in this process, a few milliseconds a function,
 * so the line is only noise (one per function: hundreds on `cdk synth -q`). Nothing else is dropped: esbuild's
 * warnings and errors, and any other output, still print. Deployments are unchanged: the assets are bundled and
 * hashed exactly as before.
 */
export function withoutBundlingNotices<T>(construct: () => T): T {
  const stderr = process.stderr;
  const write = stderr.write;
  stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && bundlingNotice.test(chunk)) {
      const done = rest.find((r): r is () => void => typeof r === 'function');
      done?.();
      return true;
    }
    return (write as (...args: unknown[]) => boolean).call(stderr, chunk, ...rest);
  }) as typeof stderr.write;
  try {
    return construct();
  } finally {
    stderr.write = write;
  }
}

/** Least privilege on the table: `read` → read data, `readWrite` → read and write data, `none` → nothing. */
export function grantTableAccess(table: ITable, grantee: IGrantable, access: TableAccess): void {
  switch (access) {
    case 'none':
      return;
    case 'read':
      table.grantReadData(grantee);
      return;
    case 'readWrite':
      table.grantReadWriteData(grantee);
      return;
    default: {
      const unknown: never = access;
      throw new Error(`Unknown table access ${String(unknown)}`);
    }
  }
}

/**
 * Settings that only the local stack may carry (SDK endpoints pointing at emulators, loopback webhook
 * receivers, anything pointing at this machine). A deployed function carrying one is refused at synth time.
 */
export function localOnlySetting(key: string, value: string): boolean {
  return (
    key.startsWith('AWS_ENDPOINT_URL') ||
    key.startsWith('WEBHOOK_ALLOW_LOOPBACK') ||
    key === 'WEBHOOK_SIGNING_KEY' ||
    key === 'CARD_FINGERPRINT_KEY' ||
    key === 'LIVE_USES_SANDBOX_PROCESSOR' ||
    key === 'MOR_LOCAL' ||
    key === 'PASSWORD_HASH_COST' ||
    /\b(localhost|127\.0\.0\.1|0\.0\.0\.0)\b|\[::1\]/i.test(value)
  );
}

function assertDeployableEnvironment(scope: Construct, environment: Readonly<Record<string, string>>): void {
  for (const [key, value] of Object.entries(environment)) {
    if (localOnlySetting(key, value)) {
      throw new Error(`${scope.node.path}: environment ${key}=${value} is a local-only setting`);
    }
  }
}

/** `merchants-create` → `MerchantsCreate`. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
