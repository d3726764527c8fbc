/**
 * Buyer checkout (public, no auth; ids are unguessable), under `/api/v1/checkout`. Every answer carries CORS
 * headers that let any origin read it, never with credentials (`shared/http/cors.ts`).
 */
import { publicCheckoutByPlanResponse, publicCheckoutMerchantConfigResponse } from '../schemas/checkout.ts';
import { faceRoutes } from './types.ts';

const base = '/api/v1/checkout';

export const checkoutRoutes = faceRoutes('checkout', {
  getCheckoutMerchantConfig: {
    name: 'checkout-merchant-config', method: 'GET', path: `${base}/merchants/{merchantId}/config`,
    handler: 'functions/checkout/get-merchant-config.ts', auth: 'none', group: 'catalog', table: 'read',
    status: 200, response: publicCheckoutMerchantConfigResponse,
    summary: 'Bootstrap to mount hosted fields without a plan: the merchant\'s display name, mode, SDK and accepted payments.',
  },
  getCheckoutPlan: {
    name: 'checkout-plans-get', method: 'GET', path: `${base}/plans/{planId}`,
    handler: 'functions/checkout/get-plan.ts', auth: 'none', group: 'catalog', table: 'read',
    status: 200, response: publicCheckoutByPlanResponse,
    summary: 'An active plan of an active product as a buyer sees it: price, interval, trial, URL policies and mount fields.',
  },
});
