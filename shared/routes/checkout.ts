/**
 * Buyer checkout (public, no auth; ids are unguessable), under `/api/v1/checkout`. Every answer carries CORS
 * headers that let any origin read it, never with credentials (`shared/platform/http/cors.ts`). All of them are in the
 * `checkout` group, so their one CORS preflight route is deployed once, beside them.
 */
import {
  getCheckoutMerchantConfig,
  getCheckoutPlan,
  previewCheckoutPlanTax,
  createCheckoutPlanSession,
  applyCheckoutPlanPromoCode,
  confirmCheckoutPlan,
  getCheckoutPlanReceipt,
  getCheckoutOrder,
  previewCheckoutOrderTax,
  confirmCheckoutOrder,
  getCheckoutOrderReceipt,
  getCheckoutInvoice,
  getCheckoutPlanPolicy,
  getCheckoutOrderPolicy,
  getCheckoutImage,
} from '../checkout/routes.ts';

export {
  getCheckoutMerchantConfig,
  getCheckoutPlan,
  previewCheckoutPlanTax,
  createCheckoutPlanSession,
  applyCheckoutPlanPromoCode,
  confirmCheckoutPlan,
  getCheckoutPlanReceipt,
  getCheckoutOrder,
  previewCheckoutOrderTax,
  confirmCheckoutOrder,
  getCheckoutOrderReceipt,
  getCheckoutInvoice,
  getCheckoutPlanPolicy,
  getCheckoutOrderPolicy,
  getCheckoutImage,
};

export const checkoutRoutes = {
  getCheckoutMerchantConfig,
  getCheckoutPlan,
  previewCheckoutPlanTax,
  createCheckoutPlanSession,
  applyCheckoutPlanPromoCode,
  confirmCheckoutPlan,
  getCheckoutPlanReceipt,
  getCheckoutOrder,
  previewCheckoutOrderTax,
  confirmCheckoutOrder,
  getCheckoutOrderReceipt,
  getCheckoutInvoice,
  getCheckoutPlanPolicy,
  getCheckoutOrderPolicy,
  getCheckoutImage,
};
