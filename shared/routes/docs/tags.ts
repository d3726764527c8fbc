/**
 * The API reference's tags: one per module, named after the folder of its handlers (`functions/<module>/`), each
 * operation tagged with its handler's module.
 */
import type { TagDocs } from './types.ts';

export const moduleTags: readonly TagDocs[] = [
  { name: 'system', description: 'Liveness and this document.' },
  {
    name: 'people',
    description:
      'Merchants and the people who work on them: sub-merchants of a partner, merchant API keys, sign-up and sessions, members, roles and join links.',
  },
  {
    name: 'organizations',
    description: 'The organization API: accounts and their keys, the organizations an account is linked to, their websites, policies and settings.',
  },
  { name: 'catalog', description: 'Products, their images, plans (one-time and recurring prices) and promo codes.' },
  { name: 'customers', description: 'Customers, their payment instruments, card tokens and the hosted-fields client tokens.' },
  { name: 'payments', description: 'Transactions: card payments, refunds and disputes.' },
  { name: 'money', description: 'Balances, the ledger, payout methods, withdrawals and payouts.' },
  { name: 'invoicing', description: 'Invoices and their PDFs, with the platform as seller of record.' },
  { name: 'checkout', description: 'Orders and the hosted checkout: what a buyer reads, confirms and pays.' },
  { name: 'subscriptions', description: 'Subscriptions: their items, changes, pauses, cancellations and reactivations.' },
  { name: 'webhooks', description: 'Webhook destinations and their deliveries.' },
  {
    name: 'oauth',
    description: 'The OAuth 2.1 authorization server of the MCP endpoint: discovery, client registration, authorization, tokens and revocation.',
  },
  { name: 'agents', description: 'The MCP endpoint for AI agents, its server cards, and the user MCP tokens of the dashboard.' },
];
