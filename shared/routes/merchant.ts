/** The Merchant Public API (`Authorization: Bearer mor_…`), under `/api/v1/public-api/merchants`. */
import { createMerchant, getMerchant, updateMerchant, listApiKeys, createApiKey, revokeApiKey, mintJoinLink, assignMember } from '../people/routes.ts';
import {
  getMerchantCheckoutPlan,
  createMerchantCheckoutSession,
  applyMerchantCheckoutPromoCode,
  confirmMerchantCheckout,
  getMerchantCheckoutReceipt,
  createOrder,
  getOrder,
} from '../checkout/routes.ts';
import { listMerchantProducts } from '../catalog/routes.ts';
import { listMerchantCustomers, getMerchantCustomer } from '../customers/routes.ts';
import { listMerchantInvoices, getMerchantInvoice, downloadMerchantInvoice } from '../invoicing/routes.ts';
import { getBalanceSummary, listMerchantPayoutMethods, requestPayout, advancePayout } from '../money/routes.ts';

export {
  createMerchant,
  getMerchantCheckoutPlan,
  createMerchantCheckoutSession,
  applyMerchantCheckoutPromoCode,
  confirmMerchantCheckout,
  getMerchantCheckoutReceipt,
  getMerchant,
  updateMerchant,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  mintJoinLink,
  assignMember,
  listMerchantProducts,
  listMerchantCustomers,
  getMerchantCustomer,
  listMerchantInvoices,
  getMerchantInvoice,
  downloadMerchantInvoice,
  createOrder,
  getOrder,
  getBalanceSummary,
  listMerchantPayoutMethods,
  requestPayout,
  advancePayout,
};

export const merchantRoutes = {
  createMerchant,
  getMerchantCheckoutPlan,
  createMerchantCheckoutSession,
  applyMerchantCheckoutPromoCode,
  confirmMerchantCheckout,
  getMerchantCheckoutReceipt,
  getMerchant,
  updateMerchant,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  mintJoinLink,
  assignMember,
  listMerchantProducts,
  listMerchantCustomers,
  getMerchantCustomer,
  listMerchantInvoices,
  getMerchantInvoice,
  downloadMerchantInvoice,
  createOrder,
  getOrder,
  getBalanceSummary,
  listMerchantPayoutMethods,
  requestPayout,
  advancePayout,
};
