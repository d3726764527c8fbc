/**
 * Starts ONE local stack for the whole test run, on free ports so it never clashes with a developer's
 * `npm start`, provides its URLs and the functions' environment to the test files, and stops it afterwards.
 */
import type { TestProject } from 'vitest/node';
import { startLocalStack } from '../infra/local/stack.ts';
import './support/context.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stack = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    sqsPort: 0,
    env: {
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL || 'WARN',
      // The e2e tests receive webhooks on local HTTP servers; only a local stack may allow that.
      WEBHOOK_ALLOW_LOOPBACK: '1',
    },
  });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('sqsEndpoint', stack.sqsEndpoint);
  project.provide('functionEnv', { ...stack.env });
  return () => stack.stop();
}
