/** The longest URL a webhook destination (or an organization's webhook) may have, checked by schemas and by the URL guard. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
