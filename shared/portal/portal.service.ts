/**
 * The customer portal's pages and what their forms do. Every page and form is a customer's of one merchant: the
 * session names both, the merchant scope check has held the path's merchant to the session's, and each record a page
 * names (a subscription, an invoice) is read and held to the session's customer first — another customer's is the
 * same 404 as an unknown one. Every action is the subscription engine's own operation (its version condition
 * serializes it with any other change: a race is a 409 page, never a second effect), under the merchant's rules: an
 * action they turned off is not on the page, and a post of it anyway is 403.
 */
import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import type { JSX } from 'hono/jsx/jsx-runtime';
import { ForbiddenError, NotFoundError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { utcText } from '../domain/time.ts';
import { merchantInvoiceNotFound, portalNotFound } from '../domain/unknown-ids.ts';
import { noSoonerThan, orDoneAlready, PAGE_SIZE, pageNumber, seeOther, withDone } from '../dashboard/index.ts';
import { findCustomer, findCustomerIdsByEmail, findPaymentInstrument, HOSTED_FIELDS_SDK_PATH, mintClientToken } from '../customers/index.ts';
import { merchantInvoicePdfUrl, issuedInvoiceSummaries, merchantInvoiceSummariesOf } from '../invoicing/index.ts';
import { checkoutBranding, checkoutDisplayName, customizationOf } from '../organizations/index.ts';
import { beginAttempt, emailThrottleKey, getMerchant, getUser, ipThrottleKey, type ThrottleRule } from '../people/index.ts';
import type { AddressedMail } from '../platform/mail/outbox.ts';
import type { PortalMail } from './portal.mails.ts';
import { sendMail } from '../platform/mail/mailer.ts';
import { logger } from '../platform/observability.ts';
import { config } from '../platform/config.ts';
import { cookieValue, csrfTokenOf, PORTAL_SESSION_COOKIE } from '../platform/http/session-cookie.ts';
import { email as emailAddress } from '../platform/http/schemas/common.ts';
import type { HttpEvent, Reply } from '../platform/http/types.ts';
import {
  replaceCard as replaceCustomerCard,
  createCancellation,
  createPause,
  createReactivation,
  customerSubscription,
  customerSubscriptions,
  isLocallyActive,
  resumeSubscription,
  updateCancellation,
} from '../subscriptions/index.ts';
import { InvoicesPage, LinkPage, PaymentMethodPage, type PortalContext, portalHome, SignedOutPage, SubscriptionsPage } from './pages.tsx';
import { portalPath } from '../domain/portal-paths.ts';
import { getPortalSettings } from './portal-settings.repository.ts';
import { createPortalLink, LINK_TTL_SECONDS, openPortal, type PortalPrincipal, signOutOfPortal, usablePortalLink } from './portal-sessions.service.ts';
import type { portalCancelReasons } from './portal.schemas.ts';

/**
 * The portal pages' CSP: the dashboard's, with the merchant's colours allowed by the nonce, and no script at all but
 * on the payment method page (`withCard`): the portal's script, the hosted fields' SDK and their frame, all of this origin.
 */
export const portalCsp = (nonce: string, withCard = false): string =>
  [
    "default-src 'none'",
    withCard ? `script-src 'self' 'nonce-${nonce}'` : "script-src 'none'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self'",
    ...(withCard ? ["frame-src 'self'"] : []),
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');

/** A page's context: a new nonce, the merchant's branding, and when signed in the form token and the merchant's rules. */
async function portalContext(event: HttpEvent, merchant: Merchant, principal?: PortalPrincipal): Promise<PortalContext> {
  const [customization, settings] = await Promise.all([customizationOf(merchant.id), principal ? getPortalSettings(merchant.id) : undefined]);
  const branding = checkoutBranding(customization, config.publicOrigin);
  const token = principal ? cookieValue(event.cookies ?? [], PORTAL_SESSION_COOKIE) : undefined;
  return {
    nonce: randomBytes(18).toString('base64'),
    mode: config.mode,
    merchantId: merchant.id,
    brand: {
      name: checkoutDisplayName(merchant, customization),
      brandColor: branding.brandColor,
      accentColor: branding.accentColor,
      logoUrl: branding.logoUrl,
    },
    ...(token ? { csrf: csrfTokenOf(token, 'portal') } : {}),
    ...(principal ? { returnUrl: principal.returnUrl } : {}),
    ...(settings ? { settings } : {}),
  };
}

async function portalReply(ctx: PortalContext, page: JSX.Element, withCard = false, status = 200): Promise<Reply> {
  return {
    status,
    body: `<!doctype html>${await page.toString()}\n`,
    headers: { 'content-security-policy': portalCsp(ctx.nonce, withCard), 'referrer-policy': 'same-origin', 'cache-control': 'no-store' },
  };
}

/** The merchant of a signed-out portal page (no scope check ran): one of this deployment, else the 404 page. */
async function portalMerchant(merchantId: string): Promise<Merchant> {
  const merchant = await getMerchant(merchantId);
  if (!merchant || merchant.mode !== config.mode) throw portalNotFound();
  return merchant;
}

/** `/portal/<merchantId>`: the entry page without a session (an ended session comes back here with `done=expired`). */
export async function signedOutPage(merchantId: string, event: HttpEvent, done: string | undefined): Promise<Reply> {
  const ctx = await portalContext(event, await portalMerchant(merchantId));
  return portalReply(ctx, SignedOutPage({ ctx, done }));
}

/** How often an address, and a source address, may ask for a sign-in link (every request counts). */
export const portalSignInLimits = {
  email: { scope: 'portal-sign-in-email', limit: 5, windowSeconds: 900 },
  ip: { scope: 'portal-sign-in-ip', limit: 50, windowSeconds: 900 },
} as const satisfies Record<string, ThrottleRule>;

/**
 * The sign-in answer takes at least this long, whoever asked: a customer's request (a link written, a mail sent) and a
 * stranger's (neither) cannot be told apart by their timing.
 */
export const SIGN_IN_ANSWER_MS = 600;

/**
 * The sign-in form: the same "check your e-mail" page whether or not `email` is a customer's, after the same time
 * (`SIGN_IN_ANSWER_MS`); a customer's address (its oldest customer of this merchant) gets a link by mail that opens
 * the portal once, within 15 minutes. Every request counts against the address and the source (429 with
 * `Retry-After` past `portalSignInLimits`); a malformed address is shown again with the reason.
 */
export async function requestSignInLink(merchantId: string, email: string, event: HttpEvent): Promise<Reply> {
  const started = Date.now();
  const merchant = await portalMerchant(merchantId);
  const ctx = await portalContext(event, merchant);
  // The platform's one rule for an e-mail address (trimmed, lowercased); a malformed one is shown the form again.
  const parsed = v.safeParse(emailAddress, email);
  if (!parsed.success) {
    return portalReply(ctx, SignedOutPage({ ctx, error: 'Enter the e-mail address you gave when you subscribed.', email: email.slice(0, 254) }), false, 400);
  }
  const address = parsed.output;
  await beginAttempt([
    // Each merchant's portal counts an address apart: requests at one shop do not lock its customer out of another's.
    { rule: portalSignInLimits.email, key: emailThrottleKey(address, `${merchant.id}:`) },
    { rule: portalSignInLimits.ip, key: ipThrottleKey(event.requestContext?.http?.sourceIp) },
  ]);
  const [customerId] = await findCustomerIdsByEmail(merchant.id, address, 1);
  if (customerId) {
    const link = await createPortalLink(merchant, customerId, {}, 'email');
    // A mail SES refuses (past its sending rate, say) changes nothing of the answer: a customer's address is answered
    // as a stranger's always is, and the customer may ask again. The operator sees it in the log.
    await sendMail({
      to: address,
      subject: `Your billing link for ${ctx.brand.name}`,
      text: [
        `Open this link to manage your subscriptions, card and invoices with ${ctx.brand.name}:`,
        '',
        link.url,
        '',
        `It works once, until ${utcText(link.expiresAt)} (${LINK_TTL_SECONDS.email / 60} minutes). If you did not ask for it, ignore this e-mail: nothing changes.`,
      ].join('\n'),
    }).catch((error: unknown) => logger.error('portal sign-in link not sent', { merchantId: merchant.id, error: error as Error }));
  }
  await noSoonerThan(started, SIGN_IN_ANSWER_MS);
  return portalReply(ctx, SignedOutPage({ ctx, sent: true }));
}

/** A link's page: its one button (404 page for a link that cannot open the portal; nothing is spent). */
export async function linkPage(merchantId: string, token: string, event: HttpEvent): Promise<Reply> {
  // The link first: any unusable link, on any path, is the same 404 page.
  await usablePortalLink(merchantId, token);
  const ctx = await portalContext(event, await portalMerchant(merchantId));
  return portalReply(ctx, LinkPage({ ctx, path: portalPath(merchantId, `/link/${token}`) }));
}

/** The link's button: spends the link, signs the browser in and sends it to the subscriptions. */
export async function openLink(merchantId: string, token: string): Promise<Reply> {
  const link = await usablePortalLink(merchantId, token);
  await portalMerchant(merchantId);
  return seeOther(portalHome(merchantId), [await openPortal(link)]);
}

export async function subscriptionsPage(merchant: Merchant, principal: PortalPrincipal, event: HttpEvent, done: string | undefined): Promise<Reply> {
  const [ctx, subscriptions] = await Promise.all([portalContext(event, merchant, principal), customerSubscriptions(merchant, principal.customerId)]);
  return portalReply(ctx, SubscriptionsPage({ ctx, subscriptions, done }));
}

const turnedOff = () => new ForbiddenError(`This merchant does not let customers do that here. Contact them instead.`);

/** The session's customer's subscription (another customer's is the same 404 as an unknown one) and the merchant's rules. */
const ownSubscription = (merchant: Merchant, principal: PortalPrincipal, subscriptionId: string) =>
  Promise.all([customerSubscription(merchant, principal.customerId, subscriptionId), getPortalSettings(merchant.id)]);

const backHome = (merchant: Merchant, done: string): Reply => seeOther(withDone(portalHome(merchant.id), done));

type PortalAction = 'cancel' | 'undo-cancel' | 'pause' | 'resume' | 'reactivate';

/** What `action` asked for, as the subscription shows it once done: the answer's `done`, or null when it does not. */
function doneAlready(s: Awaited<ReturnType<typeof customerSubscription>>, action: PortalAction): string | null {
  const ended = s.status === 'canceled' || s.status === 'completed';
  switch (action) {
    case 'pause':
      return s.pause?.by === 'customer' ? 'pause' : null;
    case 'resume':
      return !s.pause && s.status !== 'paused' ? 'resume' : null;
    case 'undo-cancel':
      return !s.openCancellationId && !ended ? 'undo-cancel' : null;
    case 'cancel':
      return ended ? 'cancel' : s.openCancellationId ? 'cancel-scheduled' : null;
    case 'reactivate':
      // Running again with no end set: a subscription still running toward its end was not reactivated.
      return (s.status === 'active' || s.status === 'trial') && !s.openCancellationId && !s.endAt ? 'reactivate' : null;
  }
}

/** Makes a form's change; refused because what it asks for is done already, answered as that change was. */
function made(merchant: Merchant, principal: PortalPrincipal, subscriptionId: string, action: PortalAction, change: () => Promise<Reply>): Promise<Reply> {
  return orDoneAlready(change, async () => {
    const [now] = await ownSubscription(merchant, principal, subscriptionId);
    const done = doneAlready(now, action);
    return done ? backHome(merchant, done) : null;
  });
}

/** The cancellation form: cancel (the merchant's owner is told), or undo a scheduled cancellation (always allowed). */
export async function cancelAction(
  merchant: Merchant,
  principal: PortalPrincipal,
  subscriptionId: string,
  form: { action: 'cancel' | 'undo-cancel'; reason?: (typeof portalCancelReasons)[number] | undefined; comment?: string | undefined },
): Promise<Reply> {
  return made(merchant, principal, subscriptionId, form.action, () => cancelOrUndo(merchant, principal, subscriptionId, form));
}

async function cancelOrUndo(
  merchant: Merchant,
  principal: PortalPrincipal,
  subscriptionId: string,
  form: { action: 'cancel' | 'undo-cancel'; reason?: (typeof portalCancelReasons)[number] | undefined; comment?: string | undefined },
): Promise<Reply> {
  const [s, settings] = await ownSubscription(merchant, principal, subscriptionId);
  if (form.action === 'undo-cancel') {
    // Keeping a subscription is always allowed; only an open cancellation can be undone, and only the customer's own.
    if (!s.openCancellationId) throw new NotFoundError('subscription_cancellation.not_found', 'This subscription has no cancellation to undo.');
    await updateCancellation(merchant, s.openCancellationId, { status: 'revoked' }, 'customer');
    return backHome(merchant, 'undo-cancel');
  }
  if (!settings.allowCancel) throw turnedOff();
  const [owner, customer] = await Promise.all([merchant.ownerUserId ? getUser(merchant.ownerUserId) : null, findCustomer(merchant.id, principal.customerId)]);
  const c = await createCancellation(
    merchant,
    {
      subscriptionId: s.id,
      reason: form.reason ?? null,
      description: form.comment?.trim() || null,
      churnTimePolicy: settings.cancelPolicy === 'at-next-renewal' ? 'at-next-renewal' : 'now',
      prorated: settings.cancelPolicy === 'now-prorated',
      cancelledBy: 'customer',
    },
    // The merchant's owner is told, by a mail written with the cancellation.
    owner && customer
      ? (made) => ownerMailOfCancellation(merchant, owner.email, customer, s.name, made.status === 'completed' ? null : made.churnedAt, form)
      : undefined,
  );
  return backHome(merchant, c.status === 'completed' ? 'cancel' : 'cancel-scheduled');
}

/**
 * The pause forms, when the merchant allows pauses: pause until resumed (not a subscription set to end, whose end
 * would leave the paid time its pause kept unused), or resume the customer's own pause (not the merchant's).
 */
export async function pauseAction(
  merchant: Merchant,
  principal: PortalPrincipal,
  subscriptionId: string,
  form: { action: 'pause' | 'resume' },
): Promise<Reply> {
  const [s, settings] = await ownSubscription(merchant, principal, subscriptionId);
  if (!settings.allowPause) throw turnedOff();
  return made(merchant, principal, subscriptionId, form.action, async () => {
    if (form.action === 'resume') await resumeSubscription(merchant, s.id, 'customer');
    else await createPause(merchant, { subscriptionId: s.id, pausedBy: 'customer' }, true);
    return backHome(merchant, form.action);
  });
}

/** The reactivation form: an ended subscription starts again, charged at once, when the merchant allows it. */
export async function reactivateAction(merchant: Merchant, principal: PortalPrincipal, subscriptionId: string): Promise<Reply> {
  const [s, settings] = await ownSubscription(merchant, principal, subscriptionId);
  if (!settings.allowReactivation) throw turnedOff();
  // Only an ended one: a running one's cancellation is undone by its cancel form, and only the customer's own.
  return made(merchant, principal, subscriptionId, 'reactivate', async () => {
    await createReactivation(merchant, { subscriptionId: s.id }, true);
    return backHome(merchant, 'reactivate');
  });
}

const reasonText: Readonly<Record<(typeof portalCancelReasons)[number], string>> = {
  'did-not-use': 'did not use it enough',
  'did-not-want': 'no longer wants it',
  'too-expensive': 'too expensive',
  'missing-features': 'lacks features they need',
  'bugs-or-problems': 'had bugs or problems',
  other: 'another reason',
};

/** The mail that tells the merchant's owner (`to`) of a customer's cancellation in the portal: who, what, when it ends, and the customer's reason and words. */
function ownerMailOfCancellation(
  merchant: Merchant,
  to: string,
  customer: { id: string; email: string },
  subscriptionName: string,
  endsAt: string | null,
  form: { reason?: (typeof portalCancelReasons)[number] | undefined; comment?: string | undefined },
): AddressedMail {
  const mail: PortalMail = {
    template: 'portal.customer-cancelled',
    data: {
      customerEmail: customer.email,
      customerId: customer.id,
      subscriptionName,
      merchantName: merchant.name,
      endsAt,
      reason: form.reason ? reasonText[form.reason] : null,
      comment: form.comment?.trim() || null,
    },
  };
  return { to, mail };
}

/**
 * The customer's invoices, newest first, a page (`page`, from 1) of `PAGE_SIZE` at a time (the page is absent when the
 * merchant hides invoices).
 */
export async function invoicesPage(merchant: Merchant, principal: PortalPrincipal, event: HttpEvent, page: string | undefined): Promise<Reply> {
  const n = pageNumber(page);
  const [ctx, summaries] = await Promise.all([portalContext(event, merchant, principal), issuedInvoiceSummaries(merchant, principal.customerId)]);
  if (!ctx.settings!.showInvoices) throw turnedOff();
  // A draft is not the customer's yet: only issued invoices (they have their number).
  const invoices = summaries.flatMap((i) => (i.number !== null ? [{ ...i, number: i.number, issueDate: i.issueDate ?? i.createdAt }] : []));
  return portalReply(ctx, InvoicesPage({ ctx, invoices: invoices.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE), totalCount: invoices.length, page: n }));
}

/** An invoice's PDF, by redirect to its stored PDF: the session's customer's invoice only (another's is 404, like an unknown one). */
export async function invoicePdf(merchant: Merchant, principal: PortalPrincipal, invoiceId: string): Promise<Reply> {
  const [[summary], settings] = await Promise.all([merchantInvoiceSummariesOf(merchant, [invoiceId]), getPortalSettings(merchant.id)]);
  if (!settings.showInvoices) throw turnedOff();
  if (!summary || summary.customerId !== principal.customerId || summary.status === 'draft') throw merchantInvoiceNotFound();
  return { status: 302, headers: { location: await merchantInvoicePdfUrl(merchant, invoiceId), 'cache-control': 'no-store' } };
}

export async function signOut(merchant: Merchant, principal: PortalPrincipal): Promise<Reply> {
  const cleared = await signOutOfPortal(principal);
  return seeOther(withDone(portalPath(merchant.id), 'signed_out'), [cleared]);
}

/** The card the customer's subscriptions are charged to (their primary card), and the hosted fields to replace it. */
export async function paymentMethodPage(merchant: Merchant, principal: PortalPrincipal, event: HttpEvent, done: string | undefined): Promise<Reply> {
  const [ctx, customer, subscriptions, { clientToken }] = await Promise.all([
    portalContext(event, merchant, principal),
    findCustomer(merchant.id, principal.customerId),
    customerSubscriptions(merchant, principal.customerId),
    mintClientToken(merchant.id, { allowedOrigin: config.publicOrigin }),
  ]);
  if (!ctx.settings!.allowPaymentMethodUpdate) throw turnedOff();
  // The cards the subscriptions that still charge (those a new card replaces: `replaceCard`) are charged to, each its
  // own else the primary one, each read once; with none charging, the primary card.
  const primaryId = customer?.primaryPaymentInstrument?.id ?? null;
  const charging = subscriptions.filter((s) => isLocallyActive(s.status));
  const byCard = new Map<string, string[]>();
  for (const s of charging) {
    const id = s.paymentInstrumentId ?? primaryId;
    if (id) byCard.set(id, [...(byCard.get(id) ?? []), s.name]);
  }
  if (byCard.size === 0 && primaryId) byCard.set(primaryId, []);
  const read = await Promise.all([...byCard.keys()].map((id) => findPaymentInstrument(merchant.id, id)));
  const cards = read.flatMap((i) =>
    i?.creditCard && !i.deletedAt
      ? [
          {
            brand: i.creditCard.brand,
            last4: i.creditCard.last4,
            expMonth: i.creditCard.expMonth,
            expYear: i.creditCard.expYear,
            subscriptions: byCard.get(i.id)!,
          },
        ]
      : [],
  );
  return portalReply(ctx, PaymentMethodPage({ ctx, cards, clientToken, sdk: HOSTED_FIELDS_SDK_PATH, done }), true);
}

/**
 * The card form: the token becomes the customer's card (its refusals — used, expired, unknown — come back as the
 * error page), the instrument of each subscription that still charges (a past-due one is retried with it at once), and
 * the customer's primary card; a request that lost its race to another change is the 409 page and leaves no card.
 */
export async function replaceCard(merchant: Merchant, principal: PortalPrincipal, token: string): Promise<Reply> {
  const settings = await getPortalSettings(merchant.id);
  if (!settings.allowPaymentMethodUpdate) throw turnedOff();
  await replaceCustomerCard(merchant, principal.customerId, token);
  return seeOther(withDone(portalPath(merchant.id, '/payment-method'), 'card-replaced'));
}
