/** @jsxImportSource hono/jsx */
/**
 * A merchant's catalog: products, the plans they are sold at (each with its hosted checkout link) and promo codes.
 * Owners and admins create products, plans and promo codes, archive products and plans and deactivate codes; a
 * member sees the lists only.
 */
import type { Plan, PromoCode } from '../../catalog/index.ts';
import { PastTheEnd, pageHref } from '../customers/paging.tsx';
import { Money, Status, Time } from '../kit/format.tsx';
import type { Child } from 'hono/jsx';
import { ActionForm, type Column, Csrf, Empty, Field, Notice, Page, Pager, SelectField, SentOnce, Table, areaPath, type PageContext } from '../kit/layout.tsx';

/** The form's fields, as posted (all optional: the service says what is missing). */
export interface CatalogForm {
  action?: string;
  name?: string | undefined;
  description?: string | undefined;
  type?: string | undefined;
  product_id?: string | undefined;
  plan_id?: string | undefined;
  promo_code_id?: string | undefined;
  amount?: string | undefined;
  currency?: string | undefined;
  interval?: string | undefined;
  code?: string | undefined;
  percent_off?: string | undefined;
  amount_off?: string | undefined;
  amount_off_currency?: string | undefined;
  form_key?: string | undefined;
}

export interface CatalogProduct {
  id: string;
  name: string;
  description: string | null;
  type: 'one-time' | 'recurring';
  status: 'active' | 'archived';
  createdAt: string;
}

const doneNotices: Readonly<Record<string, string>> = {
  product_created: 'The product was created.',
  product_archived: 'The product was archived.',
  plan_created: 'The plan was created. Share its checkout link to sell it.',
  plan_archived: 'The plan was archived; its checkout link no longer sells it.',
  promo_created: 'The promo code was created.',
  promo_deactivated: 'The promo code was deactivated.',
  sent_before: 'This form was sent before: what it creates was created then. Nothing else was created.',
};

const productTypes = [
  { value: 'one-time', label: 'Once' },
  { value: 'recurring', label: 'As a subscription' },
] as const;

const intervals = [
  { value: '', label: 'Once (one-time product)' },
  { value: 'day', label: 'Every day' },
  { value: 'week', label: 'Every week' },
  { value: 'month', label: 'Every month' },
  { value: 'year', label: 'Every year' },
] as const;

const intervalText = (p: Plan) =>
  p.recurringInterval
    ? `every ${p.recurringInterval.length === 1 ? p.recurringInterval.unit : `${p.recurringInterval.length} ${p.recurringInterval.unit}s`}`
    : 'once';

/** The catalog's three lists, each paged on its own (`?products_page=`, `?plans_page=`, `?promo_codes_page=`). */
type Lists = 'products' | 'plans' | 'promoCodes';

const pageParams: Readonly<Record<Lists, string>> = { products: 'products_page', plans: 'plans_page', promoCodes: 'promo_codes_page' };
const listAnchors: Readonly<Record<Lists, string>> = { products: 'products', plans: 'plans', promoCodes: 'promo-codes' };

export interface CatalogProps {
  ctx: PageContext;
  /** The page of each list shown. */
  products: readonly CatalogProduct[];
  plans: readonly Plan[];
  promoCodes: readonly PromoCode[];
  /** The active products the plan form offers. */
  productChoices: readonly Pick<CatalogProduct, 'id' | 'name' | 'type'>[];
  /** The names of the products of the plans shown (and more), by id. */
  productNames: ReadonlyMap<string, string>;
  /** Which page of each list is shown, how many records each list has, and how many a page shows. */
  pages: Readonly<Record<Lists, number>>;
  totalCounts: Readonly<Record<Lists, number>>;
  pageSize: number;
  /** The origin the hosted checkout links are on. */
  checkoutOrigin: string;
  canManage: boolean;
  done?: string;
  error?: string;
  form?: CatalogForm;
}

/** The catalog's props with the page's path (what its forms post to). */
type ListProps = CatalogProps & { path: string };

/** The address of page `page` of `list`, the other lists kept at their pages, scrolled to the list. */
function listHref(p: ListProps, list: Lists, page: number): string {
  const params: Record<string, string | undefined> = {};
  for (const other of Object.keys(pageParams) as Lists[]) {
    const n = other === list ? page : p.pages[other];
    params[pageParams[other]] = n > 1 ? String(n) : undefined;
  }
  return `${pageHref(p.path, params, 1)}#${listAnchors[list]}`;
}

/** A list's previous and next links, and which page of how many it is. */
function ListPages({ p, list, what }: { p: ListProps; list: Lists; what: string }) {
  const pages = Math.max(1, Math.ceil(p.totalCounts[list] / p.pageSize));
  const page = Math.min(p.pages[list], pages);
  return (
    <Pager
      label={`Pages of ${what}`}
      page={page}
      pages={pages}
      href={(n) => listHref(p, list, n)}
      detail={pages > 1 ? `${p.totalCounts[list]} ${what}` : undefined}
    />
  );
}

/** A page past a list's end says so, and links to its first page. */
const ListPastTheEnd = ({ p, list, what }: { p: ListProps; list: Lists; what: string }) => (
  <PastTheEnd page={p.pages[list]} what={what} first={listHref(p, list, 1)} />
);

/** A list of the catalog: its heading, then its page of rows (or why there are none), then its pages. */
function CatalogList(props: {
  p: ListProps;
  list: Lists;
  title: string;
  what: string;
  empty: string;
  caption: string;
  columns: readonly Column[];
  children: Child;
}) {
  const { p, list, what } = props;
  const shown = p[list].length;
  return (
    <section aria-labelledby={listAnchors[list]}>
      <h2 id={listAnchors[list]}>{props.title}</h2>
      {shown === 0 && p.totalCounts[list] > 0 ? (
        <ListPastTheEnd p={p} list={list} what={what} />
      ) : shown === 0 ? (
        <Empty>{p.canManage ? props.empty : `No ${what} yet. Owners and admins create them.`}</Empty>
      ) : (
        <Table caption={props.caption} columns={props.columns} stack>
          {props.children}
        </Table>
      )}
      <ListPages p={p} list={list} what={what} />
    </section>
  );
}

/** A row's Manage cell, for owners and admins: the `action` that retires it while it is live, else a dash. */
function RetireCell(props: {
  p: ListProps;
  live: boolean;
  action: string;
  fields: Readonly<Record<string, string>>;
  confirm: string;
  label: string;
  children: Child;
}) {
  const { p } = props;
  if (!p.canManage) return null;
  return (
    <td data-label="Manage">
      {props.live ? (
        <ActionForm ctx={p.ctx} path={p.path} action={props.action} fields={props.fields} confirm={props.confirm} tone="danger" label={props.label}>
          {props.children}
        </ActionForm>
      ) : (
        <span class="muted">—</span>
      )}
    </td>
  );
}

function Products(p: ListProps) {
  return (
    <CatalogList
      p={p}
      list="products"
      title="Products"
      what="products"
      empty="No products yet. Create a product below, then a plan to sell it at."
      caption="The merchant's products, newest first"
      columns={['Name', 'Sold', 'Status', 'Created', p.canManage && 'Manage']}
    >
      {p.products.map((x) => (
        <tr>
          <td data-label="Name">
            {x.name}
            {x.description ? <p class="hint">{x.description}</p> : null}
          </td>
          <td data-label="Sold">{x.type === 'recurring' ? 'As a subscription' : 'Once'}</td>
          <td data-label="Status">
            <Status status={x.status} />
          </td>
          <td data-label="Created">
            <Time iso={x.createdAt} />
          </td>
          <RetireCell
            p={p}
            live={x.status === 'active'}
            action="archive_product"
            fields={{ product_id: x.id }}
            confirm={`Archive the product ${x.name}? It can no longer get new plans.`}
            label={`Archive the product ${x.name}`}
          >
            Archive
          </RetireCell>
        </tr>
      ))}
    </CatalogList>
  );
}

function Plans(p: ListProps) {
  return (
    <CatalogList
      p={p}
      list="plans"
      title="Plans"
      what="plans"
      empty="No plans yet. A plan is a price of a product; create one below and share its checkout link."
      caption="The merchant's plans, newest first, their prices and checkout links"
      columns={['Name', 'Product', 'Price', 'Status', 'Checkout link', p.canManage && 'Manage']}
    >
      {p.plans.map((x) => {
        const link = `${p.checkoutOrigin}/checkout/plans/${x.id}`;
        return (
          <tr>
            <td data-label="Name">{x.name}</td>
            <td data-label="Product">{p.productNames.get(x.productId) ?? <span class="mono wrap">{x.productId}</span>}</td>
            <td data-label="Price">
              <Money minor={x.price} currency={x.currency} /> {intervalText(x)}
            </td>
            <td data-label="Status">
              <Status status={x.isActive ? 'active' : 'archived'} />
            </td>
            <td data-label="Checkout link">
              {x.isActive ? (
                <a href={link} class="mono wrap">
                  {link}
                </a>
              ) : (
                <span class="muted">—</span>
              )}
            </td>
            <RetireCell
              p={p}
              live={x.isActive}
              action="archive_plan"
              fields={{ plan_id: x.id }}
              confirm={`Archive the plan ${x.name}? Its checkout link stops selling it.`}
              label={`Archive the plan ${x.name}`}
            >
              Archive
            </RetireCell>
          </tr>
        );
      })}
    </CatalogList>
  );
}

function PromoCodes(p: ListProps) {
  return (
    <CatalogList
      p={p}
      list="promoCodes"
      title="Promo codes"
      what="promo codes"
      empty="No promo codes yet. Create one below to give buyers a discount at checkout."
      caption="The merchant's promo codes, newest first"
      columns={['Code', 'Discount', 'Redeemed', 'Status', p.canManage && 'Manage']}
    >
      {p.promoCodes.map((x) => (
        <tr>
          <td data-label="Code" class="mono">
            {x.code}
          </td>
          <td data-label="Discount">
            {x.percentOffBasisPoints !== null ? (
              `${x.percentOffBasisPoints / 100}% off`
            ) : x.amountOff !== null && x.currency ? (
              <>
                <Money minor={x.amountOff} currency={x.currency} /> off
              </>
            ) : null}
          </td>
          <td data-label="Redeemed">
            {x.timesRedeemed}
            {x.maxRedemptions !== null ? ` of ${x.maxRedemptions}` : ''}
          </td>
          <td data-label="Status">
            <Status status={x.isActive ? 'active' : 'inactive'} />
          </td>
          <RetireCell
            p={p}
            live={x.isActive}
            action="deactivate_promo"
            fields={{ promo_code_id: x.id }}
            confirm={`Deactivate the promo code ${x.code}? Buyers can no longer use it.`}
            label={`Deactivate the promo code ${x.code}`}
          >
            Deactivate
          </RetireCell>
        </tr>
      ))}
    </CatalogList>
  );
}

function Forms(p: ListProps) {
  const f = (action: string) => (p.form?.action === action ? p.form : {});
  const product = f('create_product');
  const plan = f('create_plan');
  const promo = f('create_promo');
  const active = p.productChoices;
  return (
    <>
      <section class="panel" aria-labelledby="create-product">
        <h2 id="create-product">Create a product</h2>
        <form method="post" action={p.path}>
          <Csrf ctx={p.ctx} />
          <input type="hidden" name="action" value="create_product" />
          <SentOnce ctx={p.ctx} />
          <Field id="product-name" name="name" label="Name" required maxlength={255} value={product.name} />
          <Field id="product-description" name="description" label="Description" maxlength={1000} value={product.description} hint="Optional." />
          <SelectField id="product-type" name="type" label="Sold" choices={productTypes} value={product.type === 'recurring' ? 'recurring' : 'one-time'} />
          <div class="actions">
            <button type="submit">Create product</button>
          </div>
        </form>
      </section>
      <section class="panel" aria-labelledby="create-plan">
        <h2 id="create-plan">Create a plan</h2>
        {active.length === 0 ? (
          <p class="muted">Create a product first: a plan is a price of a product.</p>
        ) : (
          <form method="post" action={p.path}>
            <Csrf ctx={p.ctx} />
            <input type="hidden" name="action" value="create_plan" />
            <SentOnce ctx={p.ctx} />
            <SelectField
              id="plan-product"
              name="product_id"
              label="Product"
              choices={active.map((x) => ({ value: x.id, label: `${x.name} (${x.type === 'recurring' ? 'subscription' : 'once'})` }))}
              value={plan.product_id}
            />
            <Field id="plan-name" name="name" label="Name" required maxlength={255} value={plan.name} />
            <Field
              id="plan-amount"
              name="amount"
              label="Amount"
              required
              inputmode="decimal"
              maxlength={30}
              value={plan.amount}
              hint="In the currency’s units, like 19.99."
            />
            <Field
              id="plan-currency"
              name="currency"
              label="Currency"
              required
              maxlength={3}
              value={plan.currency ?? 'USD'}
              hint="Three letters, like USD or EUR."
            />
            <SelectField
              id="plan-interval"
              name="interval"
              label="Billed"
              choices={intervals}
              value={plan.interval ?? ''}
              hint="A subscription product’s plans are billed every day, week, month or year; a one-time product’s once."
            />
            <div class="actions">
              <button type="submit">Create plan</button>
            </div>
          </form>
        )}
      </section>
      <section class="panel" aria-labelledby="create-promo">
        <h2 id="create-promo">Create a promo code</h2>
        <form method="post" action={p.path}>
          <Csrf ctx={p.ctx} />
          <input type="hidden" name="action" value="create_promo" />
          <SentOnce ctx={p.ctx} />
          <Field
            id="promo-code"
            name="code"
            label="Code"
            required
            maxlength={40}
            value={promo.code}
            hint="3 to 40 letters, digits, - or _; buyers type it at checkout."
          />
          <Field
            id="promo-percent"
            name="percent_off"
            label="Percent off"
            inputmode="decimal"
            maxlength={6}
            value={promo.percent_off}
            hint="Like 25. Or leave it empty and give an amount off."
          />
          <Field id="promo-amount" name="amount_off" label="Amount off" inputmode="decimal" maxlength={30} value={promo.amount_off} />
          <Field
            id="promo-currency"
            name="amount_off_currency"
            label="Currency of the amount off"
            maxlength={3}
            value={promo.amount_off_currency}
            hint="With an amount off: three letters, like USD. The code then applies to plans in that currency."
          />
          <div class="actions">
            <button type="submit">Create promo code</button>
          </div>
        </form>
      </section>
    </>
  );
}

export function CatalogPage(p: CatalogProps) {
  const path = areaPath(p.ctx.merchant!.id, 'catalog');
  return (
    <Page ctx={p.ctx} title="Catalog" area="catalog">
      <Notice notice={p.done ? doneNotices[p.done] : undefined} error={p.error} />
      <Products {...p} path={path} />
      <Plans {...p} path={path} />
      <PromoCodes {...p} path={path} />
      {p.canManage ? <Forms {...p} path={path} /> : <p class="muted">Owners and admins manage the catalog.</p>}
    </Page>
  );
}
