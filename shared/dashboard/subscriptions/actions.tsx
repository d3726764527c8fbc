/** @jsxImportSource hono/jsx */
/**
 * What a subscription's action forms answer: back to the subscription's page saying what happened (303), or, when the
 * service refuses, a page of its own with the reason and the way back (the subscription's page is not rendered again
 * here, so each form's function carries its one service and not the page's reads).
 */
import { DomainError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { merchantPath, Notice, Page } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';

/** Runs `act` (answering what the page then says happened) and answers the redirect, or the refusal's page. */
export async function subscriptionAction(merchant: Merchant, role: Role, event: HttpEvent, subscriptionId: string, act: () => Promise<string>): Promise<Reply> {
  const back = merchantPath(merchant.id, `/subscriptions/${subscriptionId}`);
  try {
    return seeOther(withDone(back, await act()));
  } catch (e) {
    if (!(e instanceof DomainError) || e.status >= 500 || e.status === 404) throw e;
    const ctx = pageContext(event, merchant, role);
    return pageReply(
      ctx,
      <Page ctx={ctx} title="That could not be done" area="subscriptions">
        <Notice error={e.message} />
        <p>
          <a href={back}>Back to the subscription</a>
        </p>
      </Page>,
      e.status,
    );
  }
}
