/** The webhooks module's front door: what other modules may use (events, webhook destinations and their delivery). */
export { deliveryHeaders } from './signing.ts';
export { createDestination, deleteDestination, getDestination, listDeliveries, listDestinations, pingDestination, resetCircuit } from './webhooks.service.ts';
