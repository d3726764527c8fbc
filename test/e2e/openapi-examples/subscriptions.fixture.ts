/** The records the request examples of the subscriptions route list (`shared/routes/docs/subscriptions.ts`) name, beside the base fixture's. */
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function subscriptionsFixture(_base: BaseFixture): Promise<FixtureIds> {
  return {};
}
