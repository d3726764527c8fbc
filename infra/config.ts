/**
 * One typed configuration per deployment stage. Everything a stack needs to differ between `sandbox` and
 * `live` is decided here; every resource name is derived from the stage, never typed by hand.
 *
 * Inputs, from CDK context (e.g. `-c account=111111111111 -c region=eu-west-1`):
 * - `account`, `region`: target environment. Sandbox: otherwise `CDK_DEFAULT_ACCOUNT` / `CDK_DEFAULT_REGION` (set
 *   by the CDK CLI from the caller's credentials), otherwise environment-agnostic stacks. Live: REQUIRED as
 *   context, so live is never deployed to whatever account the current credentials happen to reach.
 * - `dashboardUrl`: base URL of the dashboard that join links point at; otherwise derived from `domain`.
 * - `domain`: the platform's public domain, used for the derived dashboard URL and mail sender. Sandbox
 *   defaults to the placeholder `mor.example.com`; live has no default.
 * - `mailFrom`: the SES-verified address platform e-mail is sent from; otherwise `no-reply@<domain>`.
 * - `alarmEmail`: an address the stage's alarms (a consumer gave up on a message or a stream batch) are e-mailed to,
 *   through the alarm topic (the address confirms the subscription first); otherwise the topic has no subscriber.
 * - `tokenizationDomain` and `tokenizationCertificateArn` (live only, both or neither): the custom domain of the
 *   production tokenization host (e.g. `tokens.example.com`) and an ACM certificate for it that already exists in
 *   the stack's region. Without them the host is reached on its own `execute-api` URL (the stack's
 *   `TokenizationUrl` output).
 *
 * Fixed per stage, not from context: the platform's legal entity as seller of record on the stage's invoices
 * (`infra/seller-of-record.ts`).
 *
 * Live refuses to synthesize on a placeholder: it needs `account`, `region`, and either `domain` or both
 * `dashboardUrl` and `mailFrom` (the two values derived from the domain); the error names what is missing.
 *
 * Resource names come from `infra/names.ts` (which an operator tool imports without the CDK).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Stage } from '../shared/domain/deployments.ts';
import type { SellerOfRecord } from '../shared/platform/seller-of-record.ts';
import { namePrefixFor, service, tableNameFor } from './names.ts';
import { sellerOfRecordFor } from './seller-of-record.ts';

export type { Stage };

/**
 * A setting of the deployment that is missing or wrong: what `cdk synth` / `cdk deploy` should print as it is,
 * without a stack trace (`infra/app.ts`), since the fix is in the command line, not the code.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const stages = ['sandbox', 'live'] as const satisfies readonly Stage[];

export const isStage = (value: unknown): value is Stage => (stages as readonly unknown[]).includes(value);

/** The stage named by the `stage` context value; anything but `sandbox` or `live` is an error. */
export function parseStage(value: unknown): Stage {
  if (isStage(value)) return value;
  const problem = value === undefined ? 'No stage given' : `Unknown stage ${JSON.stringify(value)}`;
  throw new ConfigError(`${problem}: pass --context stage=sandbox or --context stage=live`);
}

export { namePrefixFor, service, tableNameFor };

/** Prefix of a stage's CloudFormation stack names: `Mor-Sandbox`, `Mor-Live`. */
export const stackPrefixFor = (stage: Stage): string => `${capitalize(service)}-${capitalize(stage)}`;

/** Name of a function deployed from a route or consumer definition: `mor-sandbox-merchants-create`. */
export function functionNameFor(stage: Stage, name: string): string {
  const functionName = `${namePrefixFor(stage)}-${name}`;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(functionName)) {
    throw new ConfigError(`Function name "${functionName}" must be 1-64 letters, digits, "-" or "_"`);
  }
  return functionName;
}

export interface StageConfig {
  readonly stage: Stage;
  /** Target account and region; `undefined` members leave the stacks environment-agnostic. */
  readonly env: { readonly account?: string; readonly region?: string };
  readonly namePrefix: string;
  readonly stackPrefix: string;
  readonly tableName: string;
  /** Where a stream consumer's batches go after their retries are exhausted. */
  readonly streamFailureQueueName: string;
  /** For everything stateful: tables, queues, log groups. */
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly pointInTimeRecovery: boolean;
  /** CloudFormation termination protection on every stack of the stage. */
  readonly terminationProtection: boolean;
  readonly logRetention: RetentionDays;
  /** Base URL of the dashboard, without a trailing slash. */
  readonly dashboardUrl: string;
  /** Sender address of platform e-mail (an SES-verified identity). */
  readonly mailFrom: string;
  /** Where the stage's alarms are e-mailed (an SNS e-mail subscription of the alarm topic); absent: no subscriber. */
  readonly alarmEmail?: string;
  /** The platform as seller of record on the stage's invoices: legal name, address, phone and tax number. */
  readonly sellerOfRecord: SellerOfRecord;
  /** Powertools settings shared by every function. */
  readonly powertools: { readonly serviceName: string; readonly metricsNamespace: string };
  /** API Gateway throttling of every route of the stage: steady requests per second and burst. */
  readonly apiThrottle: { readonly rateLimit: number; readonly burstLimit: number };
  /** The production tokenization host: its own stack and HTTP API; live only (absent on sandbox). */
  readonly tokenization?: TokenizationHostConfig;
}

/** Settings of the production tokenization host (`Mor-Live-Tokenization`). */
export interface TokenizationHostConfig {
  /** Name of its HTTP API: `mor-live-tokenization`. */
  readonly apiName: string;
  /** Its own API Gateway throttling, separate from the main API's. */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /** Custom domain and the existing ACM certificate (same region) it is served with; absent: the execute-api URL. */
  readonly customDomain?: { readonly domainName: string; readonly certificateArn: string };
}

/** Reads a context value (`app.node.tryGetContext`). */
export type ContextReader = (key: string) => unknown;

interface StageSettings {
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly terminationProtection: boolean;
  readonly logRetention: RetentionDays;
  readonly dashboardHost: (domain: string) => string;
  /** Whether synthesis refuses to run without the target's account, region and domain (no placeholders). */
  readonly requiresTarget: boolean;
  readonly apiThrottle: { readonly rateLimit: number; readonly burstLimit: number };
  /** Throttling of the tokenization host; null: the stage has no tokenization host. */
  readonly tokenizationThrottle: { readonly rateLimit: number; readonly burstLimit: number } | null;
}

const settings: Record<Stage, StageSettings> = {
  sandbox: {
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    terminationProtection: false,
    logRetention: RetentionDays.ONE_MONTH,
    dashboardHost: (domain) => `dashboard.sandbox.${domain}`,
    requiresTarget: false,
    apiThrottle: { rateLimit: 100, burstLimit: 200 },
    tokenizationThrottle: null,
  },
  live: {
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    terminationProtection: true,
    logRetention: RetentionDays.ONE_YEAR,
    dashboardHost: (domain) => `dashboard.${domain}`,
    requiresTarget: true,
    apiThrottle: { rateLimit: 1000, burstLimit: 2000 },
    // Far below the main API: one request per card a buyer enters, and a low ceiling slows card testing.
    tokenizationThrottle: { rateLimit: 50, burstLimit: 100 },
  },
};

/** Placeholder domain of a sandbox synthesized without one (live has none: see requireTarget). */
const defaultDomain = `${service}.example.com`;

/**
 * The configuration of `stage`, from CDK context (`context`) and, for account and region only, the
 * `CDK_DEFAULT_ACCOUNT` / `CDK_DEFAULT_REGION` variables of `processEnv`.
 */
export function stageConfig(stage: Stage, context: ContextReader, processEnv: Readonly<Record<string, string | undefined>> = process.env): StageConfig {
  const s = settings[stage];
  const namePrefix = namePrefixFor(stage);
  if (s.requiresTarget) requireTarget(stage, context);
  const account = optionalString(context('account'), 'account') ?? nonEmpty(processEnv.CDK_DEFAULT_ACCOUNT);
  const region = optionalString(context('region'), 'region') ?? nonEmpty(processEnv.CDK_DEFAULT_REGION);
  if (account !== undefined && !/^\d{12}$/.test(account)) {
    throw new ConfigError(`account must be a 12-digit AWS account id, not "${account}"`);
  }
  if (region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) {
    throw new ConfigError(`region must be an AWS region such as eu-west-1, not "${region}"`);
  }
  const domain = optionalString(context('domain'), 'domain') ?? defaultDomain;
  const dashboardUrl = checkDashboardUrl(optionalString(context('dashboardUrl'), 'dashboardUrl') ?? `https://${s.dashboardHost(domain)}`);

  return {
    stage,
    env: { account, region },
    namePrefix,
    stackPrefix: stackPrefixFor(stage),
    tableName: tableNameFor(stage),
    streamFailureQueueName: `${namePrefix}-stream-failures`,
    removalPolicy: s.removalPolicy,
    deletionProtection: s.deletionProtection,
    pointInTimeRecovery: true,
    terminationProtection: s.terminationProtection,
    logRetention: s.logRetention,
    dashboardUrl,
    mailFrom: optionalString(context('mailFrom'), 'mailFrom') ?? `no-reply@${domain}`,
    ...alarmEmailOf(context),
    sellerOfRecord: sellerOfRecordFor(stage),
    powertools: { serviceName: service, metricsNamespace: `${capitalize(service)}/${capitalize(stage)}` },
    apiThrottle: s.apiThrottle,
    ...tokenizationHost(stage, namePrefix, s.tokenizationThrottle, context, region),
  };
}

/** The `alarmEmail` context value, when given: an e-mail address. */
function alarmEmailOf(context: ContextReader): { alarmEmail?: string } {
  const alarmEmail = optionalString(context('alarmEmail'), 'alarmEmail');
  if (alarmEmail === undefined) return {};
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail)) throw new ConfigError(`alarmEmail must be an e-mail address, not "${alarmEmail}"`);
  return { alarmEmail };
}

/**
 * The tokenization host of a stage that has one (live): its API name, throttling and, from the context values
 * `tokenizationDomain` and `tokenizationCertificateArn` (both or neither), its custom domain. A stage without a
 * host refuses those values rather than ignore them.
 */
function tokenizationHost(
  stage: Stage,
  namePrefix: string,
  throttle: StageSettings['tokenizationThrottle'],
  context: ContextReader,
  region: string | undefined,
): { tokenization?: TokenizationHostConfig } {
  const domainName = optionalString(context('tokenizationDomain'), 'tokenizationDomain');
  const certificateArn = optionalString(context('tokenizationCertificateArn'), 'tokenizationCertificateArn');
  if (!throttle) {
    if (domainName !== undefined || certificateArn !== undefined) {
      throw new ConfigError(`The ${stage} stage has no tokenization host: tokenizationDomain and tokenizationCertificateArn are live settings`);
    }
    return {};
  }
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new ConfigError('tokenizationDomain and tokenizationCertificateArn go together: give both (a custom domain and its ACM certificate) or neither');
  }
  const host = { apiName: `${namePrefix}-tokenization`, throttle };
  if (domainName === undefined || certificateArn === undefined) return { tokenization: host };
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(domainName)) {
    throw new ConfigError(`tokenizationDomain must be a host name such as tokens.example.com, not "${domainName}"`);
  }
  const arn = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[0-9a-f-]+$/.exec(certificateArn);
  if (!arn) throw new ConfigError(`tokenizationCertificateArn must be an ACM certificate ARN, not "${certificateArn}"`);
  if (region !== undefined && arn[1] !== region) {
    throw new ConfigError(`tokenizationCertificateArn must be a certificate in the stack's region ${region}, not ${arn[1]}`);
  }
  return { tokenization: { ...host, customDomain: { domainName: domainName.toLowerCase(), certificateArn } } };
}

/**
 * A stage that must name its target (live) refuses to synthesize without it, rather than fall back to the
 * caller's credentials or to placeholder hosts. The message names every missing context value.
 */
function requireTarget(stage: Stage, context: ContextReader): void {
  const given = (key: string) => optionalString(context(key), key) !== undefined;
  const missing: string[] = [];
  if (!given('account')) missing.push('account (-c account=<12-digit AWS account id>)');
  if (!given('region')) missing.push('region (-c region=<AWS region>)');
  if (!given('domain')) {
    if (!given('dashboardUrl')) missing.push('dashboardUrl (-c dashboardUrl=https://<dashboard host>) or domain (-c domain=<public domain>)');
    if (!given('mailFrom')) missing.push('mailFrom (-c mailFrom=<SES-verified sender>) or domain (-c domain=<public domain>)');
  }
  if (missing.length) {
    throw new ConfigError(`The ${stage} stage needs its own target, not defaults or placeholders; missing: ${missing.join('; ')}`);
  }
}

/** A deployed dashboard is reached over HTTPS on a public host; a local URL here is a configuration mistake. */
function checkDashboardUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`dashboardUrl must be an absolute URL, not "${value}"`);
  }
  if (url.protocol !== 'https:') throw new ConfigError(`dashboardUrl must use https, not "${value}"`);
  if (/^(localhost|127\.|0\.0\.0\.0|\[::1?\])/i.test(url.hostname)) {
    throw new ConfigError(`dashboardUrl of a deployed stage cannot point at this machine ("${value}")`);
  }
  return value.replace(/\/+$/, '');
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ConfigError(`Context value ${name} must be a string`);
  return value;
}

const nonEmpty = (value: string | undefined): string | undefined => (value ? value : undefined);

function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}
