/**
 * Stream consumer: the relay. Forwards the table's stream records to the queues of the stream consumers that take
 * them (shared/platform/events/stream-relay.ts), so that the stream has two readers, this and the webhook fan-out.
 * The stream retries from the first record that could not be forwarded.
 */
import { streamBatchConsumer } from '../../shared/platform/events/batch.ts';
import { relay, relayRoutes } from '../../shared/platform/events/stream-relay.ts';

const routes = relayRoutes();

export const handler = streamBatchConsumer((records) => relay(records, routes));
