/** The API reference's entries of the customer portal's API routes (`shared/portal/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

const linkDescription =
  "A link that opens the customer portal signed in as this customer: `url` (on the platform's origin, shown in this answer only) works once and until `expiresAt`, an hour from now. Its page shows one button; the button spends the link and starts a portal session of an hour in a cookie of its own. There the customer sees their subscriptions with each next charge and its tax, and — as the portal settings allow — cancels (with a reason; `cancelledBy: customer`), undoes a cancellation, pauses, resumes or reactivates, and downloads their invoices. `returnUrl` (https) is where the portal's back link leads. Make a new link each time a customer asks to manage their billing; a link already used, or expired, is a 404 page.";

export const portalDocs = {
  createPortalSession: {
    description: linkDescription,
    example: { params: { organizationId: ids.organizationId, customerId: ids.customerId }, body: { returnUrl: 'https://acme.example/account' } },
    errors: [
      {
        status: 422,
        code: 'portal_session.return_url',
        when: '`returnUrl` is a loopback http URL, which only a local stack takes (any other URL that is not https is 400 `request.validation_failed`).',
      },
    ],
  },
  createMerchantPortalSession: {
    description: linkDescription,
    example: { params: { merchantId: ids.merchantId, id: ids.customerId }, body: { returnUrl: 'https://acme.example/account' } },
    errors: [
      {
        status: 422,
        code: 'portal_session.return_url',
        when: '`returnUrl` is a loopback http URL, which only a local stack takes (any other URL that is not https is 400 `request.validation_failed`).',
      },
    ],
  },
  getPortalSettings: {
    description:
      "The organization's customer portal rules: `allowCancel`, `allowPause` (pause and resume), `allowPaymentMethodUpdate`, `allowReactivation`, `showInvoices`, and `cancelPolicy` — what a cancellation in the portal does: `at-next-renewal` (the default), `now`, or `now-prorated` (ends now and refunds the unused time). Every action is allowed until the organization sets otherwise.",
    example: { params: { organizationId: ids.organizationId } },
  },
  updatePortalSettings: {
    description:
      'Sets the rules given (at least one; a rule left out keeps its value) and answers them all. An action turned off leaves the portal at once: it is no longer shown, and a post of it is refused.',
    example: { params: { organizationId: ids.organizationId }, body: { allowCancel: true, cancelPolicy: 'now-prorated', allowPause: false } },
  },
} satisfies ModuleDocs<typeof routes>;
