/** The records the request examples of the payments route list (`shared/routes/docs/payments.ts`) name, beside the base fixture's. */
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function paymentsFixture(_base: BaseFixture): Promise<FixtureIds> {
  return {};
}
