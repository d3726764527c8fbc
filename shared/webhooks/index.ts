/**
 * The webhooks module's front door (events, webhook destinations and their delivery): all that other modules may use
 * of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export { deliveryHeaders } from './signing.ts';
export {
  createDestination,
  deleteDestination,
  deleteDestinationsMadeBy,
  getDestination,
  listDeliveries,
  listDestinations,
  pingDestination,
  resetCircuit,
} from './webhooks.service.ts';
export { deleteDestinationsOfAccounts } from './org-webhooks.service.ts';
/** The mail templates of the module, for the mail sender (functions/system/send-mail.ts). */
export { webhookMails } from './webhook.mails.ts';
