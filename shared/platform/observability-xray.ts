/**
 * The Powertools tracer (and with it the X-Ray SDK), loaded by `observability.ts` only where a function traces
 * with the X-Ray SDK. Nothing else imports this module.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler as captureHandler } from '@aws-lambda-powertools/tracer/middleware';

export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'mor' });

export const captureAWSv3Client = <T>(client: T): T => tracer.captureAWSv3Client(client);

export const captureLambdaHandler = () => captureHandler(tracer, { captureResponse: false });
