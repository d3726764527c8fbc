/**
 * The invoices pages' query, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText } from '../pages.schemas.ts';

export const invoicesPageQuery = v.object({ status: formText(20), search: formText(100), page: formText(6) });
