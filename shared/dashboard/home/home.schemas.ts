/**
 * The home pages' form body, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { pageForm } from '../pages.schemas.ts';

export const homeFormBody = pageForm({ action: v.literal('go_live') });
