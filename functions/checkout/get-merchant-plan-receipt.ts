import { route } from '../../shared/http/auth-api-key.ts';
import * as merchantRoutes from '../../shared/routes/merchant.ts';
import { checkoutContext } from '../../shared/services/checkout.ts';
import { checkoutReceipt } from '../../shared/services/checkout-receipts.ts';

export const handler = route(merchantRoutes.getMerchantCheckoutReceipt, async ({ merchant, params, event }) => {
  const { body, headers } = await checkoutReceipt({ planId: params.planId!, merchantId: merchant.id }, params.receiptId!, checkoutContext(event.headers));
  return { status: 200, body, headers };
});
