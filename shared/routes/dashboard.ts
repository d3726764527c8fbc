/** The dashboard back end (session auth): people, join links, team members and webhook destinations. */
import { signUp, signIn, signOut, me, claimJoinLink, listMembers, addMember, updateMember, removeMember } from '../people/routes.ts';
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
import { checkoutPlanPage, checkoutOrderPage, checkoutPageScript } from '../checkout/routes.ts';

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
};
