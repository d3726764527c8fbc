/**
 * Powertools singletons, created once per cold start and shared by every module of a function.
 *
 * The X-Ray SDK (through the Powertools tracer) is loaded only where a function traces its AWS calls:
 * `MOR_XRAY_SDK=true` and tracing not turned off (`POWERTOOLS_TRACE_ENABLED`). In a bundle `MOR_XRAY_SDK` is a
 * build-time constant (infra/constructs/bundling.ts), so a function built without it does not even contain the
 * tracer: the import below is dead code there. Locally nothing sets it, so no local function loads X-Ray.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';

const serviceName = process.env.POWERTOOLS_SERVICE_NAME ?? 'mor';

export const logger = new Logger({ serviceName });
/** Powertools' metrics, saying whether they are off as Powertools decided it (`POWERTOOLS_METRICS_DISABLED`, `POWERTOOLS_DEV`). */
class PlatformMetrics extends Metrics {
  get off(): boolean {
    return this.isDisabled();
  }
}

export const metrics = new PlatformMetrics({ serviceName, namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'Mor' });

const xray = process.env.MOR_XRAY_SDK === 'true' && process.env.POWERTOOLS_TRACE_ENABLED !== 'false' ? await import('./observability-xray.ts') : undefined;

export { withoutSdkLogging } from './aws/sdk-logging.ts';

/** An AWS SDK v3 client, traced (a subsegment per call) where tracing is on; the client itself otherwise. */
export const captureAWSv3Client = <T>(client: T): T => (xray ? xray.captureAWSv3Client(client) : client);

/**
 * Where metrics are off (`POWERTOOLS_METRICS_DISABLED`, which the local stack sets and deployed functions never
 * carry), an invocation's metrics are only dropped. Powertools' own middleware would publish nothing there either,
 * but it still warns after every invocation that recorded none ("No application metrics to publish": each stream,
 * queue and scheduled function), which locally is noise on every run.
 */
const dropMetrics = (): void => {
  metrics.clearMetrics();
  metrics.clearDimensions();
  metrics.clearMetadata();
};

/** A middy handler with the Powertools logger, tracer (where tracing is on) and metrics middleware every function starts with. */
export const observed = <E, R>() => {
  const handler = middy<E, R>().use(injectLambdaContext(logger, { resetKeys: true }));
  if (xray) handler.use(xray.captureLambdaHandler());
  return handler.use(metrics.off ? { after: dropMetrics, onError: dropMetrics } : logMetrics(metrics));
};
