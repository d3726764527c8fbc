/**
 * The API reference's tags: one per module, named after the folder of its handlers (`functions/<module>/`), each
 * operation tagged with its handler's module.
 */
import type { TagDocs } from '../../platform/http/route-docs.ts';

export const moduleTags: readonly TagDocs[] = [
  { name: 'system', 'x-displayName': 'System', description: 'Liveness and this document.' },
  {
    name: 'people',
    'x-displayName': 'Merchants and people',
    description:
      'Merchants and the people who work on them: sub-merchants of a partner, merchant API keys, sign-up and sessions, members, roles and join links.',
  },
  {
    name: 'organizations',
    'x-displayName': 'Organizations and accounts',
    description: 'The organization API: accounts and their keys, the organizations an account is linked to, their websites, policies and settings.',
  },
  { name: 'catalog', 'x-displayName': 'Catalog', description: 'Products, their images, plans (one-time and recurring prices) and promo codes.' },
  {
    name: 'customers',
    'x-displayName': 'Customers and cards',
    description: 'Customers, their payment instruments, card tokens and the hosted-fields client tokens.',
  },
  { name: 'payments', 'x-displayName': 'Payments, refunds and disputes', description: 'Transactions: card payments, refunds and disputes.' },
  { name: 'money', 'x-displayName': 'Balances and payouts', description: 'Balances, the ledger, payout methods, withdrawals and payouts.' },
  { name: 'invoicing', 'x-displayName': 'Invoices', description: 'Invoices and their PDFs, with the platform as seller of record.' },
  { name: 'checkout', 'x-displayName': 'Checkout and orders', description: 'Orders and the hosted checkout: what a buyer reads, confirms and pays.' },
  { name: 'subscriptions', 'x-displayName': 'Subscriptions', description: 'Subscriptions: their items, changes, pauses, cancellations and reactivations.' },
  {
    name: 'webhooks',
    'x-displayName': 'Webhooks and events',
    description:
      'Webhook destinations and their deliveries, and the events API: the events of the last 30 days with what each destination got, to reconcile from.',
  },
  {
    name: 'portal',
    'x-displayName': 'Customer portal',
    description: "Links that open the customer portal for one customer, and the organization's rules for what customers may do there.",
  },
  {
    name: 'oauth',
    'x-displayName': 'OAuth',
    description: 'The OAuth 2.1 authorization server of the MCP endpoint: discovery, client registration, authorization, tokens and revocation.',
  },
  {
    name: 'agents',
    'x-displayName': 'Agents (MCP)',
    description: 'The MCP endpoint for AI agents, its server cards, and the user MCP tokens of the dashboard.',
  },
];
