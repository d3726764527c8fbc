/**
 * Hosted fields: the client token a merchant back end mints for the browser, the frame's query and the text
 * bodies of the SDK and frame. The frame posts the card in the stage endpoint's flat body and gets the same
 * token record (`stageTokenRequest`, `paymentInstrumentTokenResponse` in card-tokens.ts).
 */
import * as v from 'valibot';
import { isPageOrigin, MAX_ORIGIN_LENGTH } from './hosted-fields.origins.ts';
import { isoTime } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { config } from '../platform/config.ts';
import { objectEnvelope } from '../platform/http/schemas/organization.ts';

/** The local stack (`MOR_LOCAL=1`) also accepts `http://` loopback pages; deployed stacks never do. */
const localStack = () => config.localStack;

/** A page origin, exactly as a browser writes it: `https://host[:port]`. */
export const pageOrigin = v.pipe(
  v.string(),
  v.maxCodePoints(MAX_ORIGIN_LENGTH, `must be at most ${MAX_ORIGIN_LENGTH} characters`),
  v.check(
    (s) => isPageOrigin(s, localStack()),
    'must be an https origin such as https://shop.example or https://shop.example:8443 (scheme, lowercase host and port only)',
  ),
);

/** `{allowedOrigin?}`: the one page origin the fields may be mounted on (absent or null: any page). */
export const createClientTokenRequest = named(
  'CreateClientTokenRequest',
  v.strictObject({
    allowedOrigin: v.optional(v.nullable(pageOrigin)),
  }),
);

export const clientTokenValue = v.pipe(v.string(), v.regex(/^mor_ct_[0-9a-f]{64}$/));

/** `{type:"object", data:{clientToken, expiresAt}}`: the token is in this response only. */
export const clientTokenResponse = objectEnvelope(
  'ClientTokenResponse',
  v.strictObject({
    clientToken: clientTokenValue,
    expiresAt: isoTime,
  }),
);

/** `?origin=<the page's origin>`: the frame may be framed by that origin only. */
export const hostedFieldsFrameQuery = v.strictObject({ origin: pageOrigin });

/** The body of the SDK, the frame page and the frame's script. */
export const textBody = v.pipe(v.string(), v.minLength(1));
