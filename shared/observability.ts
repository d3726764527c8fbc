/** Powertools singletons, created once per cold start and shared by every module of a function. */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';

const serviceName = process.env.POWERTOOLS_SERVICE_NAME ?? 'mor';

export const logger = new Logger({ serviceName });
export const tracer = new Tracer({ serviceName });
export const metrics = new Metrics({ serviceName, namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'Mor' });

/** A middy handler with the Powertools logger, tracer and metrics middleware every function starts with. */
export const observed = <E, R>() =>
  middy<E, R>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use(logMetrics(metrics));
