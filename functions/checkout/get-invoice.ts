import { route } from '../../shared/http/auth-none.ts';
import * as checkoutRoutes from '../../shared/routes/checkout.ts';
import { checkoutByInvoice } from '../../shared/services/checkout-invoices.ts';
import { checkoutContext } from '../../shared/services/checkout.ts';

export const handler = route(checkoutRoutes.getCheckoutInvoice, async ({ params, event }) => ({
  status: 200,
  body: await checkoutByInvoice(params.invoiceId!, checkoutContext(event.headers)),
}));
