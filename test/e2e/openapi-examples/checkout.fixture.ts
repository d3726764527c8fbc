/** The records the request examples of the checkout route list (`shared/routes/docs/checkout.ts`) name, beside the base fixture's. */
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function checkoutFixture(_base: BaseFixture): Promise<FixtureIds> {
  return {};
}
