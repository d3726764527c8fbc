/**
 * The payments pages' queries and form bodies, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';

export const paymentsPageQuery = v.object({ status: formText(40), from: formText(40), to: formText(40), q: formText(200), page: formText(10) });

export const paymentRefundFormBody = pageForm({ action: v.picklist(['review', 'refund']), amount: formText(40), reason: formText(255), key: formText(100) });
