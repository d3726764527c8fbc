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
import { captureOutput, runCaptureDir } from './support/output-capture.ts';
import './support/context.ts';

/** What every project of this run that needs the stack holds: one stack, started by the first, stopped by the last. */
interface SharedStack {
  started: Promise<{ stack: LocalStack; captureDir: string; release: () => void }>;
  holders: number;
}
const shared = Symbol.for('mor.testStack');

/** The run's stack, started once for every project that asks for it (`stack` and `stack-isolated`). */
function holdStack(): SharedStack['started'] {
  const proc = process as NodeJS.Process & { [shared]?: SharedStack };
  proc[shared] ??= { started: startStack(), holders: 0 };
  proc[shared].holders++;
  return proc[shared].started;
}

/** Lets go of the run's stack: the last holder audits the run for card data and stops it. */
async function releaseStack(): Promise<void> {
  const proc = process as NodeJS.Process & { [shared]?: SharedStack };
  const held = proc[shared]!;
  if (--held.holders > 0) return;
  delete proc[shared];
  const { stack, captureDir, release } = await held.started;
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
    release();
  }
}

async function startStack(): Promise<{ stack: LocalStack; captureDir: string; release: () => void }> {
  const capture = runCaptureDir();
  captureOutput(capture.dir, 'main');
  const stack = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    sqsPort: 0,
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { stack, captureDir } = await holdStack();
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('sqsEndpoint', stack.sqsEndpoint);
  project.provide('functionEnv', { ...stack.env });
  project.provide('captureDir', captureDir);
  return releaseStack;
}
