/**
 * The messages the hosted-fields SDK (on the merchant's page) and its frame (on the platform's origin) exchange
 * with `postMessage`. Each side reads a message only after checking the sender's origin and window, and even then
 * reads it as untrusted data: these types say what a side sends, never what may arrive.
 */

/** Marks this protocol's messages among whatever else a window receives. */
export const MESSAGE_SOURCE = 'mor-hosted-fields';

/** The fields the frame holds. */
export type FieldName = 'number' | 'expiry' | 'cvc';

export const isFieldName = (value: unknown): value is FieldName => value === 'number' || value === 'expiry' || value === 'cvc';

/** A card token as the tokenize endpoint returns it. */
export interface CardToken {
  readonly id: string;
  readonly createdAt: string;
  readonly expiratedAt: string;
}

/** The style properties a page may set inside the frame (strings of at most 100 characters). */
export const STYLE_KEYS = ['color', 'backgroundColor', 'fontFamily', 'fontSize', 'fontWeight', 'letterSpacing', 'lineHeight'] as const;
export type FieldStyles = Partial<Record<(typeof STYLE_KEYS)[number], string>>;

/** Why a tokenization failed: the platform's `errorCode` or one of the frame's own, and the field at fault. */
export interface TokenizeError {
  readonly code: string;
  readonly message: string;
  readonly field: FieldName | undefined;
}

/** What the frame sends to the page. */
export type FrameMessage =
  | { readonly type: 'ready'; readonly height: number }
  | { readonly type: 'change'; readonly complete: boolean }
  | { readonly type: 'result'; readonly id: number; readonly token: CardToken }
  | { readonly type: 'result'; readonly id: number; readonly error: TokenizeError };

/** What the page sends to the frame. */
export type PageMessage =
  | { readonly type: 'init'; readonly clientToken: string; readonly styles: unknown }
  | { readonly type: 'tokenize'; readonly id: number };

/** A message as posted: marked with the protocol's source. */
export type Posted<M> = M & { readonly source: typeof MESSAGE_SOURCE };

/** `value` as an object whose properties can be read, or null: how both sides take a message's data apart. */
export const record = (value: unknown): Readonly<Record<string, unknown>> | null =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
