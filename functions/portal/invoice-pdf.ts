import { route } from '../../shared/access/auth-portal-session.ts';
import { invoicePdf } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalInvoicePdf, ({ merchant, principal, params }) => invoicePdf(merchant, principal, params.invoiceId));
