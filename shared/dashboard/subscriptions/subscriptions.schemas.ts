/**
 * The subscriptions pages' queries and form bodies, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';

export const subscriptionsPageQuery = v.object({ status: formText(20), page: formText(6) });

export const subscriptionCancelFormBody = pageForm({ action: v.picklist(['cancel_now', 'cancel_at_period_end']) });

export const subscriptionPauseFormBody = pageForm({ action: v.picklist(['pause', 'resume']) });
