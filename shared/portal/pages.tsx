/** @jsxImportSource hono/jsx */
/**
 * The customer portal's pages, on the dashboard's kit and stylesheet, in the merchant's colours and with its logo (its
 * checkout customization): the frame, opening a link, the subscriptions with their actions, and the invoices.
 * Rendered on the server with Hono's JSX (every text and attribute escaped); no script.
 */
import type { Child } from 'hono/jsx';
import {
  Csrf,
  Empty,
  Field,
  ListPager,
  Money,
  Notice,
  type PageContext,
  PageHead,
  PastTheEnd,
  SelectField,
  SignOut,
  Status,
  Table,
  Time,
} from '../dashboard/index.ts';
import { portalPath } from '../domain/portal-paths.ts';
import type { CustomerSubscription } from '../subscriptions/index.ts';
import type { PortalSettings } from './portal-settings.entity.ts';
import { portalCancelReasons } from './portal.schemas.ts';

/** The merchant as its customers see it: its checkout's name, colours and logo. */
export interface PortalBrand {
  readonly name: string;
  readonly brandColor: string | null;
  readonly accentColor: string | null;
  readonly logoUrl: string | null;
}

export interface PortalContext extends PageContext {
  readonly merchantId: string;
  readonly brand: PortalBrand;
  /** Where the "Back" link leads (the merchant's `returnUrl`), when the session has one. */
  readonly returnUrl?: string | null;
  /** The merchant's rules (signed-in pages). */
  readonly settings?: PortalSettings;
}

type Section = 'subscriptions' | 'invoices' | 'payment-method';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The merchant's colours as the stylesheet's custom properties, in a style element the page's CSP allows by its nonce. */
function BrandStyle({ ctx }: { ctx: PortalContext }) {
  const rules = [
    ctx.brand.brandColor && HEX.test(ctx.brand.brandColor) ? `--brand:${ctx.brand.brandColor};` : '',
    ctx.brand.accentColor && HEX.test(ctx.brand.accentColor) ? `--accent:${ctx.brand.accentColor};` : '',
  ].join('');
  return rules ? <style nonce={ctx.nonce}>{`:root{${rules}}`}</style> : null;
}

export const portalHome = (merchantId: string) => portalPath(merchantId, '/subscriptions');

function PortalNav({ ctx, active }: { ctx: PortalContext; active?: Section | undefined }) {
  const links: Array<{ key: Section; name: string; href: string }> = [{ key: 'subscriptions', name: 'Subscriptions', href: portalHome(ctx.merchantId) }];
  if (ctx.settings?.allowPaymentMethodUpdate)
    links.push({ key: 'payment-method', name: 'Payment method', href: portalPath(ctx.merchantId, '/payment-method') });
  if (ctx.settings?.showInvoices) links.push({ key: 'invoices', name: 'Invoices', href: portalPath(ctx.merchantId, '/invoices') });
  return (
    <nav class="areas" aria-label="Billing">
      <ul>
        {links.map((l) => (
          <li>
            <a href={l.href} aria-current={l.key === active ? 'page' : undefined}>
              {l.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The frame of a portal page: the merchant's name and logo, the way back and out, the sections and the one `h1`. */
export const PORTAL_SCRIPT_PATH = '/portal/assets/portal.js';

export function PortalPage({
  ctx,
  title,
  active,
  script,
  children,
}: {
  ctx: PortalContext;
  title: string;
  active?: Section;
  script?: boolean;
  children?: Child;
}) {
  const signedIn = ctx.csrf !== undefined;
  const main = (
    <main id="main" class={signedIn ? undefined : 'card'} tabindex={-1}>
      <h1>{title}</h1>
      {children}
    </main>
  );
  return (
    <html lang="en">
      <PageHead title={`${title} · ${ctx.brand.name}`}>
        <BrandStyle ctx={ctx} />
        {script ? <script src={PORTAL_SCRIPT_PATH} nonce={ctx.nonce} defer /> : null}
      </PageHead>
      <body class={signedIn ? undefined : 'plain'}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="topbar">
          <div class="who">
            {ctx.brand.logoUrl ? <img src={ctx.brand.logoUrl} alt="" height="32" /> : null}
            <strong>{ctx.brand.name}</strong>
            {ctx.mode === 'test' ? <span class="deployment sandbox">Sandbox</span> : null}
          </div>
          {ctx.returnUrl ? <a href={ctx.returnUrl}>Back to {ctx.brand.name}</a> : null}
          {signedIn ? <SignOut ctx={ctx} action={portalPath(ctx.merchantId, '/sign-out')} /> : null}
        </header>
        {signedIn ? (
          <div class="shell">
            <PortalNav ctx={ctx} active={active} />
            {main}
          </div>
        ) : (
          main
        )}
      </body>
    </html>
  );
}

/** The page a portal link opens: one button, whose post spends the link (a GET changes nothing). */
export const LinkPage = ({ ctx, path }: { ctx: PortalContext; path: string }) => (
  <PortalPage ctx={ctx} title="Your billing">
    <p>Manage your subscriptions, payment method and invoices with {ctx.brand.name}.</p>
    <form method="post" action={path}>
      <input type="hidden" name="open" value="portal" />
      <button type="submit">Continue</button>
    </form>
    <p class="hint">This link works once. Ask {ctx.brand.name} for a new one when it has expired.</p>
  </PortalPage>
);

/**
 * The portal's entry page without a session (an ended session comes back here): the customer asks for a link by
 * e-mail. What it answers after (`sent`) is the same whether or not the address is a customer's; a malformed address
 * is shown again (`email`) with what to do.
 */
export const SignedOutPage = ({
  ctx,
  done,
  error,
  sent,
  email,
}: {
  ctx: PortalContext;
  done?: string | undefined;
  error?: string;
  sent?: boolean;
  email?: string;
}) => (
  <PortalPage ctx={ctx} title="Your billing">
    <Notice notice={done === 'expired' ? 'Your session has ended.' : done === 'signed_out' ? 'You are signed out.' : undefined} error={error} />
    {sent ? (
      <p role="status">
        Check your e-mail. If the address you gave is one {ctx.brand.name} knows you by, a link to your billing is on its way. It works once, for 15 minutes.
      </p>
    ) : (
      <form method="post" action={portalPath(ctx.merchantId)}>
        <p>Manage your subscriptions, card and invoices with {ctx.brand.name}: we e-mail you a link that signs you in.</p>
        <Field id="email" label="Your e-mail address" type="email" autocomplete="email" required maxlength={254} value={email} />
        <div class="actions">
          <button type="submit">Email me a link</button>
        </div>
      </form>
    )}
  </PortalPage>
);

const notices: Readonly<Record<string, string>> = {
  cancel: 'Your subscription is cancelled.',
  'cancel-scheduled': 'Your subscription will end at the end of the period you paid for.',
  'undo-cancel': 'Your subscription carries on: the cancellation is undone.',
  pause: 'Your subscription is paused.',
  resume: 'Your subscription is running again.',
  reactivate: 'Your subscription is active again.',
};

const reasonLabels: Readonly<Record<(typeof portalCancelReasons)[number], string>> = {
  'did-not-use': 'I did not use it enough',
  'did-not-want': 'I no longer want it',
  'too-expensive': 'It is too expensive',
  'missing-features': 'It lacks features I need',
  'bugs-or-problems': 'It had bugs or problems',
  other: 'Another reason',
};

/** What cancelling `s` does under the merchant's policy: at the next renewal, one with no paid time left ends now. */
function CancelTiming({ s, policy }: { s: CustomerSubscription; policy: PortalSettings['cancelPolicy'] }) {
  if (policy === 'now') return <p>It ends now, without a refund for the rest of the period.</p>;
  if (policy === 'now-prorated') {
    // What a prorated cancellation gives back: the unused time of a paid period, and the credit a pause kept of one.
    if (s.status === 'active') return <p>It ends now, and the unused part of the period you paid for is refunded.</p>;
    if (s.status === 'paused' && s.creditMinor > 0) return <p>It ends now, and what its pause kept of the period you paid for is refunded.</p>;
    return <p>It ends now: no paid time is left to refund.</p>;
  }
  if (s.paidUntil) {
    return (
      <p>
        It ends at the end of the period you paid for, on <Time iso={s.paidUntil} />; you keep it until then.
      </p>
    );
  }
  if (s.status === 'pending') return <p>It ends now, before it starts.</p>;
  return (
    <p>
      It ends now{s.status === 'paused' ? ': it is paused, so no paid period is left to keep, and nothing is refunded.' : ': no paid period is left to keep.'}
    </p>
  );
}

const running = (s: CustomerSubscription) => s.status === 'trial' || s.status === 'active' || s.status === 'past-due';

/** One subscription: what it is, when and what it charges next, what is scheduled, and the actions the merchant allows. */
function SubscriptionCard({ ctx, s }: { ctx: PortalContext; s: CustomerSubscription }) {
  const settings = ctx.settings!;
  const path = (form: 'cancel' | 'pause' | 'reactivate') => portalPath(ctx.merchantId, `/subscriptions/${s.id}/${form}`);
  const action = (form: 'cancel' | 'pause' | 'reactivate', name: string | null, label: string, tone?: 'secondary' | 'danger') => (
    <form method="post" action={path(form)} class="inline">
      <Csrf ctx={ctx} />
      {name ? <input type="hidden" name="action" value={name} /> : null}
      <button type="submit" class={tone}>
        {label}
      </button>
    </form>
  );
  const ended = s.status === 'canceled' || s.status === 'completed';
  const scheduledEnd = s.openCancellationId !== null && s.endAt !== null && !ended;
  const headingId = `sub-${s.id}`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{s.name}</h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <Status status={s.status} />
        </dd>
        <dt>Price</dt>
        <dd>
          <Money minor={s.priceMinor} currency={s.currency} /> every {s.cycle.length > 1 ? `${s.cycle.length} ${s.cycle.unit}s` : s.cycle.unit}, before tax
        </dd>
        {s.trialEndAt && s.status === 'trial' ? (
          <>
            <dt>Trial ends</dt>
            <dd>
              <Time iso={s.trialEndAt} />
            </dd>
          </>
        ) : null}
        <dt>Next charge</dt>
        <dd id={`next-charge-${s.id}`}>
          {s.nextCharge && s.nextChargeMinor !== null ? (
            <>
              <Money minor={s.nextChargeMinor} currency={s.currency} /> on <Time iso={s.nextCharge} />
              {s.nextChargeTaxMinor > 0 ? (
                <>
                  {' '}
                  (including <Money minor={s.nextChargeTaxMinor} currency={s.currency} /> tax)
                </>
              ) : null}
            </>
          ) : s.status === 'paused' ? (
            'None while paused.'
          ) : scheduledEnd ? (
            'None: it ends first.'
          ) : (
            'None.'
          )}
        </dd>
        {scheduledEnd ? (
          <>
            <dt>Ends</dt>
            <dd>
              <Time iso={s.endAt} />
            </dd>
          </>
        ) : null}
        {s.pause ? (
          <>
            <dt>Paused</dt>
            <dd>
              from <Time iso={s.pause.effectiveAt} />
              {s.pause.endAt ? (
                <>
                  {' '}
                  until <Time iso={s.pause.endAt} />
                </>
              ) : (
                ' until you resume it'
              )}
            </dd>
          </>
        ) : null}
      </dl>
      {s.status === 'past-due' ? (
        <p class="error" id={`past-due-${s.id}`}>
          {settings.allowPaymentMethodUpdate ? (
            <>
              Its last payment failed. <a href={portalPath(ctx.merchantId, '/payment-method')}>Replace your card</a> and it is charged again at once; otherwise
              it is tried again on the date of its next charge.
            </>
          ) : (
            'Its last payment failed. It is tried again on the date of its next charge.'
          )}
          {s.dunning ? (
            <>
              {' '}
              If it never goes through, the subscription is cancelled on <Time iso={s.dunning.cancelAt} />.
            </>
          ) : null}
        </p>
      ) : null}
      {/* What the buttons below charge, before they are pressed. */}
      {settings.allowPause && s.status === 'paused' ? (
        <p>
          {s.pause?.by === 'merchant'
            ? `${ctx.brand.name} paused it: ${s.pause.endAt ? 'it resumes on the date above, or sooner if they resume it.' : 'ask them to resume it.'}`
            : 'Resuming starts a new period now, charged at once less the credit the pause kept (a trial not yet over carries on instead).'}
        </p>
      ) : null}
      {settings.allowReactivation && ended ? (
        <p>
          Reactivating starts a new period now, charged at once: <Money minor={s.priceMinor} currency={s.currency} /> before tax
          {s.creditMinor > 0 ? ', less the credit it holds' : ''}.
        </p>
      ) : null}
      <div class="actions">
        {scheduledEnd && s.cancellationIsOwn ? action('cancel', 'undo-cancel', 'Keep my subscription') : null}
        {settings.allowPause && s.pause && s.pause.by !== 'merchant' ? action('pause', 'resume', 'Resume') : null}
        {settings.allowPause && !s.pause && !scheduledEnd && running(s) ? action('pause', 'pause', 'Pause', 'secondary') : null}
        {settings.allowReactivation && ended ? action('reactivate', null, 'Reactivate') : null}
      </div>
      {settings.allowCancel && !scheduledEnd && (running(s) || s.status === 'paused' || s.status === 'pending') ? (
        <details>
          <summary>Cancel this subscription</summary>
          <form method="post" action={path('cancel')}>
            <Csrf ctx={ctx} />
            <input type="hidden" name="action" value="cancel" />
            <CancelTiming s={s} policy={settings.cancelPolicy} />
            <SelectField
              id={`reason-${s.id}`}
              name="reason"
              label="Why are you cancelling?"
              choices={portalCancelReasons.map((r) => ({ value: r, label: reasonLabels[r] }))}
            />
            <div class="field">
              <label for={`comment-${s.id}`}>Anything to add? (optional)</label>
              <textarea id={`comment-${s.id}`} name="comment" maxlength={255} rows={3} />
            </div>
            <button type="submit" class="danger">
              Cancel subscription
            </button>
          </form>
        </details>
      ) : null}
    </section>
  );
}

export function SubscriptionsPage({
  ctx,
  subscriptions,
  done,
}: {
  ctx: PortalContext;
  subscriptions: readonly CustomerSubscription[];
  done?: string | undefined;
}) {
  return (
    <PortalPage ctx={ctx} title="Subscriptions" active="subscriptions">
      <Notice notice={done && Object.hasOwn(notices, done) ? notices[done] : undefined} />
      {subscriptions.length ? subscriptions.map((s) => <SubscriptionCard ctx={ctx} s={s} />) : <Empty>You have no subscriptions with {ctx.brand.name}.</Empty>}
    </PortalPage>
  );
}

export interface PortalInvoice {
  readonly id: string;
  readonly number: string;
  readonly issueDate: string;
  readonly totalAmountMinor: number;
  readonly currency: string;
  readonly status: string;
}

export function InvoicesPage({
  ctx,
  invoices,
  totalCount,
  page,
}: {
  ctx: PortalContext;
  invoices: readonly PortalInvoice[];
  totalCount: number;
  page: number;
}) {
  const path = portalPath(ctx.merchantId, '/invoices');
  return (
    <PortalPage ctx={ctx} title="Invoices" active="invoices">
      {totalCount > 0 && !invoices.length ? <PastTheEnd page={page} what="invoices" first={path} /> : null}
      {invoices.length ? (
        <Table caption="Your invoices, newest first" columns={['Number', 'Date', { name: 'Total', num: true }, 'Status', 'PDF']} stack>
          {invoices.map((i) => (
            <tr>
              <td data-label="Number">{i.number}</td>
              <td data-label="Date">{i.issueDate.slice(0, 10)}</td>
              <td data-label="Total" class="num">
                <Money minor={i.totalAmountMinor} currency={i.currency} />
              </td>
              <td data-label="Status">
                <Status status={i.status} />
              </td>
              <td data-label="PDF">
                <a href={portalPath(ctx.merchantId, `/invoices/${i.id}/pdf`)} aria-label={`Download invoice ${i.number} (PDF)`}>
                  Download
                </a>
              </td>
            </tr>
          ))}
        </Table>
      ) : totalCount === 0 ? (
        <Empty>You have no invoices yet.</Empty>
      ) : null}
      <ListPager path={path} params={{}} page={page} totalCount={totalCount} label="Invoice" />
    </PortalPage>
  );
}

/** A card brand as people write it: `american-express` is American Express. */
const brandName = (brand: string) =>
  brand
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

export interface PortalCard {
  readonly brand: string;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
}

/**
 * The card the subscriptions are charged to, and the form that replaces it: the platform's hosted card fields (a
 * frame; this page never sees the card number), whose token the script puts in the form before sending it.
 */
export function PaymentMethodPage(p: {
  ctx: PortalContext;
  /** The cards the subscriptions are charged to, each with the subscriptions it pays (several when they use different cards). */
  cards: ReadonlyArray<PortalCard & { subscriptions: readonly string[] }>;
  clientToken: string;
  sdk: string;
  done?: string | undefined;
}) {
  const { ctx, cards } = p;
  const cardText = (card: PortalCard) =>
    `${brandName(card.brand)} card ending in ${card.last4}, which expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
  return (
    <PortalPage ctx={ctx} title="Payment method" active="payment-method" script>
      <Notice notice={p.done === 'card-replaced' ? 'Your new card is saved: your subscriptions are charged to it from now on.' : undefined} />
      {cards.length > 1 ? (
        <div id="current-card">
          <p>Your subscriptions are charged to these cards:</p>
          <ul>
            {cards.map((c) => (
              <li>{`Your ${cardText(c)}: ${c.subscriptions.join(', ')}.`}</li>
            ))}
          </ul>
          <p>A new card saved here pays all of them.</p>
        </div>
      ) : (
        <p id="current-card">{cards[0] ? `Your subscriptions are charged to your ${cardText(cards[0])}.` : 'You have no card on file.'}</p>
      )}
      <form id="card-form" method="post" action={portalPath(ctx.merchantId, '/payment-method')} data-client-token={p.clientToken} data-sdk={p.sdk}>
        <Csrf ctx={ctx} />
        <input type="hidden" name="token" value="" />
        <fieldset>
          <legend>New card</legend>
          <p class="hint">Entered in a secure frame of the payment platform.</p>
          <div id="card" />
        </fieldset>
        <p class="error" role="alert" id="form-error" hidden />
        <noscript>
          <p class="error">Replacing the card needs JavaScript: the card fields are a secure frame of the platform.</p>
        </noscript>
        <div class="actions">
          <button type="submit" disabled>
            Save card
          </button>
        </div>
      </form>
    </PortalPage>
  );
}
