/** The API reference's entries of the webhooks routes (`shared/webhooks/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import { urlForbidden } from '../platform/http/reference-examples.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const webhooksDocs = {
  listMerchantEvents: {
    description:
      "Every event of the merchant of the last 30 days (the event history's lifetime), newest first, with the exact JSON body its webhooks carried (`payload`) and, per destination subscribed to its type, what happened: `delivered` (2xx), `failed` (another status, a timeout or a network error; `error` says which), `skipped` (the circuit was open) or `pending`. Webhooks are attempted once and never re-sent: this is how a receiver that was down finds what it missed. Narrow by `type` (one or more, comma-separated) and `createdFrom` / `createdTo` (inclusive); page with `limit` (1–100) and the answer's `nextCursor`. A sub-merchant's events are listed under its own id.\n\nThe order is the order the events were written: their ids are UUID v7, and `createdAt` (real time) is the time in the id. `occurredAt` is when it happened: on the sandbox, what the organization's test clock made (a renewal, a trial's end) is dated in the clock's time, which may be days or months ahead; otherwise it is real time, `createdAt` or a moment before. No clock moves an event in the list, so a poller keeps its place by id: `after=<the last id it has>` lists only the events written after that one (newest first, paged by `nextCursor` as any list). An event written in a slow transaction can be listed a moment after a later id, so re-read a short overlap (`admin listen` keeps 30 s) and drop the ids already handled.",
    example: { params: { merchantId: ids.merchantId }, query: { type: 'payment.completed,payment.refunded', limit: '20' } },
  },
  getMerchantEvent: {
    description:
      "One event of the merchant: the id is the one every delivery of it carries in `X-Webhook-Id`, the same on every destination, so a receiver can deduplicate and look an event up. An id that is unknown, another merchant's or older than 30 days answers the same 404.",
    example: { params: { merchantId: ids.merchantId, eventId: ids.eventId } },
  },
  // Organization webhook destinations
  createOrganizationWebhookDestination: {
    description:
      'Adds a webhook destination to the **calling account** (not to one organization): it receives `transaction-processed` and `transaction-declined` (both unless `eventTypes` says otherwise) of every organization the account is linked to, in an envelope signed with `X-Webhook-Signature` under the 64-hex `secret`, which is in this response only. `auth` adds HTTP Basic credentials to each delivery (the password is never answered). The `url` must be HTTPS to a public address, port 443 or ≥ 1024; the local stack (`npm start`) also takes `http://127.0.0.1:<port>` receivers, as in the example. An account has at most 10 destinations.',
    example: {
      body: {
        url: 'http://127.0.0.1:8787/webhooks/mor',
        auth: { type: 'basic', username: 'mor', password: 'a long receiver password' },
        eventTypes: ['transaction-processed', 'transaction-declined'],
      },
    },
    errors: [
      { status: 409, code: 'webhook.destinations_busy', when: 'Other destinations of the account were being created at the same moment; try again.' },
      urlForbidden,
      { status: 422, code: 'webhook.destination_limit_reached', when: 'The account has 10 destinations already: delete one first.' },
    ],
  },
  listOrganizationWebhookDestinations: {
    description:
      "The calling account's webhook destinations in the list envelope, by creation time (newest first unless `sortDirection=asc`), each with its `circuit` (opened after 5 consecutive failed deliveries; events are then skipped until the destination is updated). Never a password or secret.",
    example: { query: { limit: '20', offset: '0', sortDirection: 'desc' } },
  },
  getOrganizationWebhookDestination: {
    description:
      "One webhook destination of the calling account: `url`, `auth` (`{type, username}`, never the password), `eventTypes` and `circuit` (`closed`, or `open` with `openedAt` after 5 consecutive failed deliveries). Another account's destination answers 404 like an unknown one.",
    example: { params: { webhookDestinationId: ids.webhookDestinationId } },
  },
  updateOrganizationWebhookDestination: {
    description:
      'Changes `url`, `auth` and/or `eventTypes`; `auth` replaces both credentials (the password is required with it) and `"auth": null` removes them. A new `url` passes the same checks as on create. Any update also closes the destination\'s circuit; events skipped while it was open are not replayed.',
    example: {
      params: { webhookDestinationId: ids.webhookDestinationId },
      body: {
        auth: { type: 'basic', username: 'mor', password: 'a new receiver password' },
        eventTypes: ['transaction-processed', 'transaction-declined'],
      },
    },
    errors: [urlForbidden],
  },
  deleteOrganizationWebhookDestination: {
    description:
      'Deletes a webhook destination of the calling account and answers it as it was; it receives no further events, and its place counts no more against the limit of 10.',
    example: { params: { webhookDestinationId: ids.webhookDestinationIdToDelete } },
  },
  createWebhookDestination: {
    description:
      "Adds a receiver of the merchant's events (owners and admins). The URL must be `https` on port 443 or 1024 and up, and its host must resolve to public addresses only, checked now and again on every delivery; a local stack started with `WEBHOOK_ALLOW_LOOPBACK=1` also takes `http://127.0.0.1:<port>` receivers, as in this example. `eventTypes` are catalog types, `headers` up to 20 custom headers sent with each delivery (shown later by name only), and `receiveSubMerchantEvents` (a partner merchant only) adds its sub-merchants' events. The 64-hex signing `secret` is in this answer only.",
    example: {
      params: { merchantId: ids.merchantId },
      body: {
        url: 'http://127.0.0.1:8080/webhooks/mor',
        eventTypes: ['payment.completed', 'payment.refunded'],
        headers: { 'X-Receiver-Token': 'rcv_2f9d1c7a' },
      },
    },
    errors: [
      {
        status: 422,
        code: 'webhook.url_forbidden',
        when: 'The URL is not https, has userinfo or a well-known port other than 443, or its host is or resolves to a loopback, private, link-local or other non-public address (or does not resolve).',
      },
      { status: 422, code: 'webhook.sub_merchant_events_not_allowed', when: '`receiveSubMerchantEvents` was asked for on a sub-merchant.' },
    ],
  },
  listWebhookDestinations: {
    description:
      "The merchant's webhook destinations, a page at a time (`page` from 1, `limit` 1–100, default 20), each with its event types, custom header names and circuit state; never a signing secret or a header value. Any member may read them.",
    example: { params: { merchantId: ids.merchantId }, query: { page: '1', limit: '20' } },
  },
  getWebhookDestination: {
    description:
      'One destination: its URL, event types, custom header names and circuit (`closed`, or `open` after 5 consecutive 5xx answers, timeouts or network errors, when events are skipped). Any member may read it; never its secret.',
    example: { params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationId } },
  },
  deleteWebhookDestination: {
    description: 'Deletes the destination (owners and admins): no event is sent to it any more, and its signing secret is no longer valid for anything.',
    example: { params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationIdToDelete } },
  },
  testWebhookDestination: {
    description:
      'Sends a signed `{"type":"webhook.test","createdAt":…}` POST to the destination (15-second timeout) and answers with what the receiver said: `delivered` (a 2xx), its `httpStatus`, or the `error` (`timeout`, a network error). An unreachable receiver is still a 200 of this route, with `delivered: false`. It writes no delivery record and does not touch the circuit. Owners and admins.',
    example: { params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationId } },
  },
  resetWebhookCircuit: {
    description:
      "Closes the destination's circuit (owners and admins) so events flow to it again; the events skipped while it was open are not replayed. On a closed circuit it changes nothing.",
    example: { params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationId } },
  },
  listWebhookDeliveries: {
    description:
      "The destination's delivery history, newest first, a page at a time (`page`, `limit` 1–100): each attempt's event, `status` (`sending`, `succeeded`, `failed`, `skipped`), the receiver's `httpStatus`, the `error`, `durationMs` and the start of the receiver's answer (`responseSnippet`). Filters: `status`, `eventType` and `httpStatus` (100–599). Any member may read it.",
    example: {
      params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationId },
      query: { status: 'failed', eventType: 'payment.completed', page: '1', limit: '20' },
    },
  },
} satisfies ModuleDocs<typeof routes>;
