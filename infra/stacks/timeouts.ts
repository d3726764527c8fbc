/**
 * Function timeouts. A definition may carry its own `timeoutSeconds`; otherwise routes get a timeout well
 * inside API Gateway's 30 s integration limit and consumers one that covers a 10 s webhook POST plus the
 * table writes around it. A queue's visibility timeout follows from its consumers' timeouts.
 */
import { Duration } from 'aws-cdk-lib';
import { defaultConsumerTimeoutSeconds, visibilityTimeoutFactor, type ConsumerDef, type QueueName } from '../consumers.ts';
import { defaultRouteTimeoutSeconds, type RouteDef } from '../../shared/routes/index.ts';

/** What a timeout is read from: a route or consumer definition (or a CORS preflight route). */
type Timed = Pick<RouteDef | ConsumerDef, 'name' | 'timeoutSeconds'>;

function ownTimeoutSeconds(def: Timed): number | undefined {
  if (!('timeoutSeconds' in def)) return undefined;
  const value = def.timeoutSeconds;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 900) {
    throw new Error(`${def.name}: timeoutSeconds must be a whole number of seconds between 1 and 900`);
  }
  return value;
}

export const routeTimeout = (def: Timed): Duration => Duration.seconds(ownTimeoutSeconds(def) ?? defaultRouteTimeoutSeconds);

export const consumerTimeout = (def: ConsumerDef): Duration => Duration.seconds(ownTimeoutSeconds(def) ?? defaultConsumerTimeoutSeconds);

/** Visibility timeout of `queue`: six times the longest timeout of the functions it feeds (or of a default consumer). */
export function visibilityTimeoutFor(queue: QueueName, consumers: readonly ConsumerDef[]): Duration {
  const longest = Math.max(
    defaultConsumerTimeoutSeconds,
    ...consumers.filter((c) => c.source === 'queue' && c.queue === queue).map((c) => consumerTimeout(c).toSeconds()),
  );
  return Duration.seconds(visibilityTimeoutFactor * longest);
}
