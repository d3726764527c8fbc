/** The dashboard back end (session auth): people, join links, team members, webhook destinations, checkout customization, policy PDF uploads and payouts. */
import { signUp, signIn, signOut, me, claimJoinLink, listMembers, addMember, updateMember } from '../people/routes.ts';
import { removeMember } from '../dashboard/team/api-routes.ts';
import { createDashboardPolicyUpload } from '../dashboard/checkout-settings/api-routes.ts';
import {
  createWebhookDestination,
  listWebhookDestinations,
  getWebhookDestination,
  deleteWebhookDestination,
  testWebhookDestination,
  resetWebhookCircuit,
  listWebhookDeliveries,
} from '../webhooks/routes.ts';
import { createDashboardRefund } from '../payments/routes.ts';
import {
  checkoutPlanPage,
  checkoutOrderPage,
  checkoutPageScript,
  getCheckoutCustomization,
  updateCheckoutCustomization,
  setCheckoutLogo,
} from '../checkout/routes.ts';
import { listDashboardPayouts, getDashboardPayout } from '../money/routes.ts';

export {
  signUp,
  signIn,
  signOut,
  me,
  claimJoinLink,
  createWebhookDestination,
  listWebhookDestinations,
  getWebhookDestination,
  deleteWebhookDestination,
  testWebhookDestination,
  resetWebhookCircuit,
  listWebhookDeliveries,
  listMembers,
  addMember,
  updateMember,
  removeMember,
  createDashboardRefund,
  checkoutPlanPage,
  checkoutOrderPage,
  checkoutPageScript,
  getCheckoutCustomization,
  updateCheckoutCustomization,
  setCheckoutLogo,
  createDashboardPolicyUpload,
  listDashboardPayouts,
  getDashboardPayout,
};

export const dashboardRoutes = {
  signUp,
  signIn,
  signOut,
  me,
  claimJoinLink,
  createWebhookDestination,
  listWebhookDestinations,
  getWebhookDestination,
  deleteWebhookDestination,
  testWebhookDestination,
  resetWebhookCircuit,
  listWebhookDeliveries,
  listMembers,
  addMember,
  updateMember,
  removeMember,
  createDashboardRefund,
  checkoutPlanPage,
  checkoutOrderPage,
  checkoutPageScript,
  getCheckoutCustomization,
  updateCheckoutCustomization,
  setCheckoutLogo,
  createDashboardPolicyUpload,
  listDashboardPayouts,
  getDashboardPayout,
};
