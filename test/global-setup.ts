/**
 * Starts ONE local stack for the whole test run, on free ports so it never clashes with a developer's
 * `npm start`, provides its URLs and the functions' environment to the test files, and stops it afterwards. Both
 * projects that need it (`stack`, whose files share their processes, and `stack-isolated`) hold the same stack.
 *
 * Every line the run's processes write is kept in a capture folder (functions log at INFO there, without
 * flooding the terminal); before the stack stops, every table item, every mail sent and every captured line is
 * audited for card numbers and verification values, and a finding fails the run.
 */
import type { TestProject } from 'vitest/node';
import { type LocalStack, startLocalStack } from '../infra/local/stack.ts';
import { auditCardData } from './support/card-data-audit.ts';
import { holdOnce } from './support/held-once.ts';
import { captureOutput, runCaptureDir } from './support/output-capture.ts';
import './support/context.ts';

/** The run's stack and its capture folder. */
interface RunStack {
  stack: LocalStack;
  captureDir: string;
  release: () => Promise<void>;
}

/** Audits the run for card data, then stops its stack: when the last project holding it lets go. */
async function auditAndStop(started: Promise<RunStack>): Promise<void> {
  const { stack, captureDir, release } = await started;
  try {
    const auditStarted = Date.now();
    const audit = await auditCardData({
      endpoint: stack.dynamoEndpoint,
      region: stack.settings.region,
      tableName: stack.settings.tableName,
      captureDir,
      sesEndpoint: stack.sesEndpoint,
    });
    if (audit.findings.length) {
      const list = audit.findings
        .slice(0, 20)
        .map((f) => `  ${f.kind} ${f.masked} in ${f.where}`)
        .join('\n');
      const message = `Card data found in the table, the mails or the logs of this run (${audit.findings.length}):\n${list}`;
      process.stderr.write(`\n${message}\n`);
      throw new Error(message);
    }
    process.stdout.write(
      `Card-data audit: ${audit.itemsScanned} table items, ${audit.mailsScanned} mails and ${audit.linesScanned} log lines, no card data (${((Date.now() - auditStarted) / 1000).toFixed(1)} s).\n`,
    );
  } finally {
    await stack.stop();
    await release();
  }
}

async function startStack(): Promise<RunStack> {
  const capture = runCaptureDir();
  captureOutput(capture.dir, 'main');
  const stack = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    sqsPort: 0,
    // The functions' DynamoDB calls unsigned (DynamoDB Local checks no signature): a twentieth of the stack's CPU a run.
    unsignedDynamo: true,
    env: {
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL || 'INFO',
      // The e2e tests receive webhooks on local HTTP servers; only a local stack may allow that.
      WEBHOOK_ALLOW_LOOPBACK: '1',
      // Passwords and account secrets hashed at scrypt N = 2^10 instead of 2^15: the same format and checks, a
      // thirty-second of the work (at 2^15 the sign-ups and activations were 42 % of four integration files' CPU).
      // Only a local stack may set this (config.passwordHashCost); the unit test of the hashing holds the default.
      PASSWORD_HASH_COST: '10',
    },
  });
  return { stack, captureDir: capture.dir, release: capture.release };
}

/** Every project of this run that needs the stack (`stack` and `stack-isolated`) holds the one stack: the first starts it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const held = holdOnce('mor.testStack', startStack, auditAndStop);
  const { stack, captureDir } = await held.value;
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('sqsEndpoint', stack.sqsEndpoint);
  project.provide('functionEnv', { ...stack.env });
  project.provide('captureDir', captureDir);
  project.provide('unsignedDynamo', true);
  return held.release;
}
