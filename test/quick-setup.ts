/**
 * The unit tests' global setup (`npm run test:quick`, and the `unit` project of `npm test`): the unit tests need no
 * running stack, so instead of starting one it gives the test files the functions' environment of a stack that is
 * not there: the last ports of the range, which nothing of this project listens on (one each, so the stack's parts
 * stay apart), so a unit test that reached for DynamoDB, SQS or the gateway would fail at once, not wait. Their
 * output goes to the run's capture folder (in `npm test`, the one the stack's card-data audit reads).
 */
import type { TestProject } from 'vitest/node';
import { defaultSettings, localEnv } from '../infra/local/settings.ts';
import { runCaptureDir } from './support/output-capture.ts';
import './support/context.ts';

/** The ports of the stack that is not there: gateway, DynamoDB, SQS, S3, SES, Secrets Manager. */
const ports = { port: 65530, dynamoPort: 65531, sqsPort: 65532, s3Port: 65533, sesPort: 65534, secretsPort: 65535 };

export default function setup(project: TestProject): () => Promise<void> {
  const capture = runCaptureDir();
  const settings = { ...defaultSettings, ...ports };
  project.provide('baseUrl', `http://127.0.0.1:${ports.port}/api`);
  project.provide('dynamoEndpoint', `http://127.0.0.1:${ports.dynamoPort}`);
  project.provide('sqsEndpoint', `http://127.0.0.1:${ports.sqsPort}`);
  // The functions' log lines at INFO, as the stack's: kept in the capture folder (not on the terminal) and audited.
  project.provide('functionEnv', localEnv(settings, { POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL || 'INFO' }));
  project.provide('captureDir', capture.dir);
  return capture.release;
}
