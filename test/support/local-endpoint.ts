/**
 * Integration tests write to DynamoDB and SQS for real: they refuse to run unless the SDK endpoints point at
 * this machine (the local stack), so a stray AWS profile can never make them touch a real account.
 */
import { isLoopbackUrl } from '../../infra/local/settings.ts';

export function requireLocalEndpoint(env: Readonly<Record<string, string | undefined>> = process.env): { dynamo: string; sqs: string } {
  const dynamo = env.AWS_ENDPOINT_URL_DYNAMODB;
  const sqs = env.AWS_ENDPOINT_URL_SQS;
  for (const [name, url] of [
    ['AWS_ENDPOINT_URL_DYNAMODB', dynamo],
    ['AWS_ENDPOINT_URL_SQS', sqs],
  ] as const) {
    if (!isLoopbackUrl(url)) {
      throw new Error(`Integration tests only run against the local stack: ${name} is ${url === undefined ? 'not set' : `"${url}"`}, not a loopback URL`);
    }
  }
  return { dynamo: dynamo!, sqs: sqs! };
}
