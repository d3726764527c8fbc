/**
 * A merchant's home page: its activation (from the merchant the scope check read), and its balances and latest
 * payments read at once (two queries side by side: one round trip beyond the session and scope check).
 */
import type { Merchant, Role } from '../../domain/merchants.ts';
import { DomainError } from '../../domain/errors.ts';
import { managers } from '../../platform/http/route-def.ts';
import { balancesOf } from '../../money/index.ts';
import { latestTransactions } from '../../payments/index.ts';
import { activationOf, goLive } from '../../people/index.ts';
import { hasProcessor } from '../../processor/index.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { merchantPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { HomePage } from './home.tsx';

const RECENT = 5;

export async function homePage(merchant: Merchant, role: Role, event: HttpEvent, done?: string, error?: string): Promise<Reply> {
  const [balances, payments] = await Promise.all([balancesOf(merchant), latestTransactions(merchant.id, RECENT)]);
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    HomePage({
      ctx,
      steps: activationOf(merchant).steps,
      balances: balances.map((b) => ({
        currency: b.currency,
        availableMinor: b.balances.available,
        pendingMinor: b.balances.pending,
        reservedMinor: b.balances.reserved,
        owedMinor: b.balances.owed,
      })),
      payments,
      canGoLive: (managers as readonly Role[]).includes(role),
      liveProcessor: hasProcessor('live'),
      ...(done ? { done } : {}),
      ...(error ? { error } : {}),
    }),
    error ? 422 : 200,
  );
}

/** The home page's one action: go live (an owner or admin; the route's roles hold it), or the page again with why not. */
export async function goLiveFromHome(merchant: Merchant, role: Role, event: HttpEvent): Promise<Reply> {
  try {
    await goLive(merchant);
    return seeOther(withDone(merchantPath(merchant.id), 'live'));
  } catch (e) {
    if (e instanceof DomainError && e.status === 422) return homePage(merchant, role, event, undefined, e.message);
    throw e;
  }
}
