/**
 * Runs in every test worker before its test file: the worker gets the same environment as the functions of
 * the run's local stack, so a test can import handlers, repositories and `shared/` modules directly and they
 * talk to the same DynamoDB Local and SQS server. Its output is kept for the run's card-data audit.
 */
import { inject } from 'vitest';
import { applyEnv } from '../infra/local/settings.ts';
import { captureOutput } from './support/output-capture.ts';
import './support/context.ts';

applyEnv(inject('functionEnv'));
captureOutput(inject('captureDir'), 'worker');
// With the run's stack, this process's own DynamoDB calls go unsigned too, as its functions' do (once a process).
if (inject('unsignedDynamo')) {
  const [{ db }, { unsignedForDynamoLocal }] = await Promise.all([import('../shared/platform/db/client.ts'), import('../infra/local/dynamo.ts')]);
  unsignedForDynamoLocal(db, inject('functionEnv').AWS_REGION!);
}
