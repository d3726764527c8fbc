/**
 * Every key of the single table is built here and nowhere else.
 *
 * | entity     | pk                      | sk                 | gsi1pk / gsi1sk                              |
 * |------------|-------------------------|--------------------|----------------------------------------------|
 * | merchant   | MERCHANT#<id>           | MERCHANT           | CHILDREN#<parentId> / <createdAt>#<id>       |
 * | api key    | APIKEY#<keyId>          | APIKEY             | APIKEYS#<merchantId> / <createdAt>#<keyId>   |
 * | user       | USER#<id>               | USER               |                                              |
 * | e-mail     | EMAIL#<lowercased>      | EMAIL              |                                              |
 * | membership | MERCHANT#<merchantId>   | MEMBER#<userId>    | MEMBERSHIPS#<userId> / MERCHANT#<merchantId> |
 * | session    | SESSION#<sessionId>     | SESSION            |                                              |
 * | event      | EVENT#<eventId>         | EVENT              | EVENTS#<merchantId> / <occurredAt>#<eventId> |
 * | webhook    | MERCHANT#<merchantId>   | WEBHOOK#<destId>   |                                              |
 * | delivery   | WEBHOOK#<destId>        | DELIVERY#<eventId> |                                              |
 * | mail       | MAIL#<mailId>           | MAIL               | MAILS / <sentAt>#<mailId>                    |
 */
export const keys = {
  merchant: (id: string) => ({ pk: `MERCHANT#${id}`, sk: 'MERCHANT' }),
  merchantChildren: (parentId: string, createdAt: string, id: string) => ({
    gsi1pk: `CHILDREN#${parentId}`,
    gsi1sk: `${createdAt}#${id}`,
  }),

  apiKey: (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' }),
  apiKeysOfMerchant: (merchantId: string) => ({ gsi1pk: `APIKEYS#${merchantId}` }),
  apiKeyListing: (merchantId: string, createdAt: string, keyId: string) => ({
    gsi1pk: `APIKEYS#${merchantId}`,
    gsi1sk: `${createdAt}#${keyId}`,
  }),

  user: (id: string) => ({ pk: `USER#${id}`, sk: 'USER' }),
  email: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),

  membership: (merchantId: string, userId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `MEMBER#${userId}` }),
  membershipsOfUser: (userId: string) => ({ gsi1pk: `MEMBERSHIPS#${userId}` }),
  membershipListing: (userId: string, merchantId: string) => ({
    gsi1pk: `MEMBERSHIPS#${userId}`,
    gsi1sk: `MERCHANT#${merchantId}`,
  }),

  session: (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: 'SESSION' }),

  event: (eventId: string) => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  eventListing: (merchantId: string, occurredAt: string, eventId: string) => ({
    gsi1pk: `EVENTS#${merchantId}`,
    gsi1sk: `${occurredAt}#${eventId}`,
  }),

  webhookDestination: (merchantId: string, destinationId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `WEBHOOK#${destinationId}` }),
  webhookDestinationsOf: (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'WEBHOOK#' }),
  delivery: (destinationId: string, eventId: string) => ({ pk: `WEBHOOK#${destinationId}`, sk: `DELIVERY#${eventId}` }),
  deliveriesOf: (destinationId: string) => ({ pk: `WEBHOOK#${destinationId}`, skPrefix: 'DELIVERY#' }),

  mail: (mailId: string) => ({ pk: `MAIL#${mailId}`, sk: 'MAIL' }),
  mailListing: (sentAt: string, mailId: string) => ({ gsi1pk: 'MAILS', gsi1sk: `${sentAt}#${mailId}` }),
} as const;
