import { route } from '../../shared/access/auth-api-key.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutContext } from '../../shared/checkout/checkout.service.ts';
import { checkoutReceipt } from '../../shared/checkout/checkout-receipts.service.ts';

export const handler = route(checkoutRoutes.getMerchantCheckoutReceipt, async ({ merchant, params, event }) => {
  const { body, headers } = await checkoutReceipt({ planId: params.planId, merchantId: merchant.id }, params.receiptId, checkoutContext(event.headers));
  return { status: 200, body, headers };
});
