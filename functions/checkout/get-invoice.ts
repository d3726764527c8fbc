import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutByInvoice } from '../../shared/checkout/checkout-invoices.service.ts';
import { checkoutContext } from '../../shared/checkout/checkout.service.ts';

export const handler = route(checkoutRoutes.getCheckoutInvoice, async ({ params, event }) => ({
  status: 200,
  body: await checkoutByInvoice(params.invoiceId, checkoutContext(event.headers)),
}));
