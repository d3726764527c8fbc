/** @jsxImportSource hono/jsx */
/** The webhook destinations page (list and add) and a destination's page (test ping, circuit, delete, delivery log). */
import type { EventType } from '../../platform/events/catalog.ts';
import { deliveryStatuses } from '../../webhooks/delivery-vocabulary.schemas.ts';
import type { getDestination, listDeliveries, pingDestination } from '../../webhooks/index.ts';
import { Status, Time } from '../kit/format.tsx';
import {
  ActionForm,
  Csrf,
  Empty,
  Field,
  FilterForm,
  Notice,
  Page,
  Pager,
  SecretOnce,
  SelectField,
  SentOnce,
  Table,
  merchantPath,
  type PageContext,
} from '../kit/layout.tsx';
import { BackToDevelopers } from './developers.tsx';
import { PastTheEnd } from '../customers/paging.tsx';

type Destination = Awaited<ReturnType<typeof getDestination>>;
type DeliveryList = Awaited<ReturnType<typeof listDeliveries>>;

/** What the delivery log is narrowed to. */
export interface DeliveryFilters {
  status?: (typeof deliveryStatuses)[number];
  eventType?: EventType;
  httpStatus?: number;
}

const webhooksPath = (ctx: PageContext, rest = '') => merchantPath(ctx.merchant!.id, `/developers/webhooks${rest}`);

const listNotices: Readonly<Record<string, string>> = {
  deleted: 'The destination is deleted.',
  sent_before:
    'This form was sent before: its destination was added then, and its signing secret shown that once. No other destination was added. If the secret was not kept, delete that destination and add another.',
};

export interface WebhooksProps {
  ctx: PageContext;
  destinations: readonly Destination[];
  eventTypes: readonly EventType[];
  canManage: boolean;
  done?: string | undefined;
  error?: string | undefined;
  url?: string | undefined;
  eventTypesChosen?: readonly string[];
  receiveSubMerchantEvents?: boolean;
  headers?: string | undefined;
  headersError?: string | undefined;
  created?: { id: string; url: string; secret: string };
}

export function WebhooksPage(p: WebhooksProps) {
  const chosen = new Set(p.eventTypesChosen ?? []);
  const isParent = p.ctx.merchant!.parentId === null;
  return (
    <Page ctx={p.ctx} title="Webhooks" area="developers">
      <BackToDevelopers ctx={p.ctx} />
      <Notice notice={p.done ? listNotices[p.done] : undefined} error={p.error} />
      {p.created ? (
        <section class="panel" aria-labelledby="new-destination">
          <h2 id="new-destination">Destination added</h2>
          <p>
            Events go to <code>{p.created.url}</code>. Check each one's <code>X-Webhook-Signature</code> with this secret.
          </p>
          <SecretOnce id="signing-secret" label="Signing secret" value={p.created.secret} />
          <p>
            <a href={webhooksPath(p.ctx, `/${p.created.id}`)}>Open the destination</a> to send a test.
          </p>
        </section>
      ) : null}
      <section aria-labelledby="destinations">
        <h2 id="destinations">Destinations</h2>
        {p.destinations.length === 0 ? (
          <Empty>No webhook destinations yet. {p.canManage ? 'Add one below to receive events.' : 'An owner or admin can add one.'}</Empty>
        ) : (
          <Table caption="The merchant's webhook destinations" columns={['URL', 'Event types', 'Circuit', 'Created']}>
            {p.destinations.map((d) => (
              <tr>
                <td>
                  <a href={webhooksPath(p.ctx, `/${d.id}`)}>{d.url}</a>
                </td>
                <td>{d.eventTypes.join(', ')}</td>
                <td>
                  <Status status={d.circuit.state === 'open' ? 'open_circuit' : 'closed'} />
                </td>
                <td>
                  <Time iso={d.createdAt} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      {p.canManage ? (
        <section class="panel" aria-labelledby="add-destination">
          <h2 id="add-destination">Add a destination</h2>
          <form method="post" action={webhooksPath(p.ctx)}>
            <Csrf ctx={p.ctx} />
            <input type="hidden" name="action" value="create" />
            <SentOnce ctx={p.ctx} />
            <Field
              id="url"
              label="URL"
              type="url"
              required
              maxlength={2048}
              value={p.url}
              inputmode="url"
              hint="A public HTTPS address that answers POST requests."
            />
            <fieldset>
              <legend>Event types</legend>
              {p.eventTypes.map((t) => (
                <div class="check">
                  <input type="checkbox" id={`event-${t}`} name="eventTypes" value={t} checked={chosen.has(t)} />
                  <label for={`event-${t}`}>{t}</label>
                </div>
              ))}
            </fieldset>
            <div class="field">
              <label for="headers">Custom headers (optional)</label>
              {p.headersError ? (
                <p class="field-error" id="headers-error">
                  {p.headersError}
                </p>
              ) : null}
              <textarea
                id="headers"
                name="headers"
                rows={3}
                maxlength={22_000}
                spellcheck={false}
                aria-describedby={p.headersError ? 'headers-error headers-hint' : 'headers-hint'}
                aria-invalid={p.headersError ? 'true' : undefined}
              >
                {p.headers ?? ''}
              </textarea>
              <p class="hint" id="headers-hint">
                Sent with every delivery, one per line as Name: value (at most 20). Their values are not shown again.
              </p>
            </div>
            {isParent ? (
              <div class="check">
                <input type="checkbox" id="receiveSubMerchantEvents" name="receiveSubMerchantEvents" checked={p.receiveSubMerchantEvents} />
                <label for="receiveSubMerchantEvents">Also receive these events of my sub-merchants</label>
              </div>
            ) : null}
            <div class="actions">
              <button type="submit">Add destination</button>
            </div>
          </form>
        </section>
      ) : (
        <p class="muted">Only owners and admins can add, test or delete destinations.</p>
      )}
    </Page>
  );
}

const destinationNotices: Readonly<Record<string, string>> = {
  circuit_reset: 'The circuit is closed: the next events are delivered. Events skipped while it was open are not replayed.',
};

export interface DestinationProps {
  ctx: PageContext;
  destination: Destination;
  deliveries: DeliveryList['data'];
  pagination: DeliveryList['pagination'];
  filters: DeliveryFilters;
  eventTypes: readonly EventType[];
  canManage: boolean;
  done?: string | undefined;
  error?: string | undefined;
  ping?: Awaited<ReturnType<typeof pingDestination>>;
}

/** The log's address with `filters` and `page` (page 1 left out). */
function logPath(ctx: PageContext, id: string, filters: DeliveryFilters, page: number): string {
  const q = new URLSearchParams();
  if (filters.status) q.set('status', filters.status);
  if (filters.eventType) q.set('eventType', filters.eventType);
  if (filters.httpStatus !== undefined) q.set('httpStatus', String(filters.httpStatus));
  if (page > 1) q.set('page', String(page));
  const query = q.toString();
  return `${webhooksPath(ctx, `/${id}`)}${query ? `?${query}` : ''}#deliveries`;
}

function PingResult({ ping }: { ping: NonNullable<DestinationProps['ping']> }) {
  return (
    <section class="panel" aria-labelledby="ping-result">
      <h2 id="ping-result">Test result</h2>
      <p role="status">
        {ping.delivered ? <Status status="delivered" /> : <Status status="failed" />}{' '}
        {ping.httpStatus !== null ? `The receiver answered HTTP ${ping.httpStatus}` : `No answer: ${ping.error ?? 'the request failed'}`} in {ping.durationMs}{' '}
        ms.
      </p>
      <p class="hint">A test is not an event: it is not in the delivery log and does not change the circuit.</p>
    </section>
  );
}

export function DestinationPage(p: DestinationProps) {
  const d = p.destination;
  const here = webhooksPath(p.ctx, `/${d.id}`);
  const filtered = p.filters.status !== undefined || p.filters.eventType !== undefined || p.filters.httpStatus !== undefined;
  const { page, totalPages, totalCount } = p.pagination;
  return (
    <Page ctx={p.ctx} title="Webhook destination" area="developers">
      <p>
        <a href={webhooksPath(p.ctx)}>Back to webhooks</a>
      </p>
      <Notice notice={p.done ? destinationNotices[p.done] : undefined} error={p.error} />
      {p.ping ? <PingResult ping={p.ping} /> : null}
      <section class="panel" aria-labelledby="settings">
        <h2 id="settings">Settings</h2>
        <dl class="facts">
          <dt>URL</dt>
          <dd>
            <code>{d.url}</code>
          </dd>
          <dt>Event types</dt>
          <dd>{d.eventTypes.join(', ')}</dd>
          <dt>Sub-merchant events</dt>
          <dd>{d.receiveSubMerchantEvents ? 'Received' : 'Not received'}</dd>
          <dt>Custom headers</dt>
          <dd>{d.headerNames.length ? d.headerNames.join(', ') : 'None'}</dd>
          <dt>Circuit</dt>
          <dd>
            <Status status={d.circuit.state === 'open' ? 'open_circuit' : 'closed'} /> {d.circuit.consecutiveFailures} consecutive failures
            {d.circuit.openedAt ? (
              <>
                {' '}
                · opened <Time iso={d.circuit.openedAt} />
              </>
            ) : null}
          </dd>
          <dt>Created</dt>
          <dd>
            <Time iso={d.createdAt} />
          </dd>
        </dl>
        {p.canManage ? (
          <div class="actions">
            <ActionForm ctx={p.ctx} path={here} action="test">
              Send test
            </ActionForm>
            <ActionForm ctx={p.ctx} path={here} action="reset_circuit" tone="secondary">
              Reset circuit
            </ActionForm>
            <ActionForm ctx={p.ctx} path={here} action="delete" tone="danger" confirm="Delete this destination? It receives no more events.">
              Delete destination
            </ActionForm>
          </div>
        ) : (
          <p class="muted">Only owners and admins can test, reset or delete a destination.</p>
        )}
      </section>
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Delivery log</h2>
        <FilterForm path={here}>
          <SelectField id="status" label="Status" any="Any" choices={deliveryStatuses.map((x) => ({ value: x, label: x }))} value={p.filters.status} />
          <SelectField id="eventType" label="Event type" any="Any" choices={p.eventTypes.map((t) => ({ value: t, label: t }))} value={p.filters.eventType} />
          <Field
            id="httpStatus"
            label="Response code"
            inputmode="numeric"
            pattern="[1-5][0-9]{2}"
            maxlength={3}
            value={p.filters.httpStatus === undefined ? undefined : String(p.filters.httpStatus)}
          />
        </FilterForm>
        {p.deliveries.length === 0 && page > 1 ? (
          <PastTheEnd page={page} what="deliveries" first={logPath(p.ctx, d.id, p.filters, 1)} />
        ) : p.deliveries.length === 0 ? (
          <Empty>
            {filtered
              ? 'No deliveries match these filters. Choose "Any" to see them all.'
              : 'No deliveries yet. Each event of the chosen types is delivered once and shows up here; a test does not.'}
          </Empty>
        ) : (
          <>
            {/* Wide on a phone: the scrolling region takes the keyboard's focus. */}
            <Table
              caption="Deliveries to this destination, newest first"
              columns={['Sent', 'Event type', 'Event', 'Status', { name: 'Response code', num: true }, { name: 'Duration', num: true }, 'Answer']}
              region="Deliveries"
            >
              {p.deliveries.map((x) => (
                <tr>
                  <td>
                    <Time iso={x.attemptedAt} />
                  </td>
                  <td>{x.eventType}</td>
                  <td>
                    <code>{x.eventId}</code>
                  </td>
                  <td>
                    <Status status={x.status} />
                  </td>
                  <td class="num">{x.httpStatus ?? <span class="muted">—</span>}</td>
                  <td class="num">{x.durationMs === null ? <span class="muted">—</span> : `${x.durationMs} ms`}</td>
                  {/* What went wrong, and what the receiver answered (its first 1 KiB), failed or not. */}
                  <td>{x.error && x.responseSnippet ? `${x.error}: ${x.responseSnippet}` : (x.error ?? x.responseSnippet ?? <span class="muted">—</span>)}</td>
                </tr>
              ))}
            </Table>
            <Pager
              label="Delivery log pages"
              page={page}
              pages={totalPages}
              href={(n) => logPath(p.ctx, d.id, p.filters, n)}
              previous="Newer"
              next="Older"
              detail={`${totalCount} ${totalCount === 1 ? 'delivery' : 'deliveries'}`}
            />
          </>
        )}
      </section>
    </Page>
  );
}
