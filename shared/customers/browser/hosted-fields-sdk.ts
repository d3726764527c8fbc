/**
 * The hosted-fields SDK a merchant page loads from the platform (`GET /api/v1/hosted-fields/sdk.js`, this file
 * bundled): dependency-free browser code. It mounts ONE iframe, served by the platform from its own origin, that
 * holds the card number, expiry and CVC inputs, so the card values stay inside that frame; the page only ever
 * receives the resulting token. The page and the frame talk with `postMessage` (`hosted-fields-protocol.ts`), each
 * checking the other's origin and window: the SDK accepts messages only from the platform origin (the origin
 * `sdk.js` was loaded from) and from its own iframe.
 *
 *   const fields = MorHostedFields.mount({ clientToken, container: '#card', styles, onChange, timeoutMs });
 *   const { token } = await fields.tokenize(); // { id, createdAt, expiratedAt }
 *   fields.destroy();
 *
 * `tokenize()` rejects with an Error whose `code` says why: the server's `errorCode` (`card.invalid_number`,
 * `card.expired`, `auth.client_token_expired`, `client_token.origin_not_allowed`, …), or `incomplete`,
 * `frame_unavailable`, `network_error`, `busy`, `destroyed`; `field` (`number`, `expiry`, `cvc`) when one is at fault.
 */
import {
  isFieldName,
  MESSAGE_SOURCE,
  record,
  type CardToken,
  type FieldName,
  type FieldStyles,
  type PageMessage,
  type Posted,
} from './hosted-fields-protocol.ts';

/** What `MorHostedFields.mount()` takes. */
export interface MountOptions {
  /** The client token the merchant's back end minted for this page. */
  readonly clientToken: string;
  /** The element the frame goes into, or a selector of it. */
  readonly container: Element | string;
  readonly styles?: FieldStyles;
  /** Called when the three fields become complete or stop being so. */
  readonly onChange?: (state: { complete: boolean }) => void;
  /** How long the frame may take to load (default 10 s). */
  readonly timeoutMs?: number;
}

/** The mounted fields. */
export interface HostedFields {
  /** Resolves once the fields are loaded; rejects with frame_unavailable when they never load. */
  ready(): Promise<void>;
  /** Tokenizes what the buyer typed. */
  tokenize(): Promise<{ token: CardToken }>;
  /** Removes the frame; pending tokenizations reject with destroyed. */
  destroy(): void;
}

/** What `tokenize()` and `mount()` reject or throw with. */
export interface HostedFieldsError extends Error {
  code: string;
  field?: FieldName;
}

/** The SDK's one global, `window.MorHostedFields`. */
export interface MorHostedFields {
  mount(options: MountOptions): HostedFields;
}

declare global {
  interface Window {
    MorHostedFields?: MorHostedFields;
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;

function hostedFieldsError(code: string, message: string, field?: unknown): HostedFieldsError {
  const error = new Error(message) as HostedFieldsError;
  error.name = 'HostedFieldsError';
  error.code = code;
  if (isFieldName(field)) error.field = field;
  return error;
}

/** Where the platform is: the origin `sdk.js` was loaded from, and its frame page. */
interface Platform {
  readonly origin: string;
  readonly frameUrl: string;
}

interface Pending {
  resolve(result: { token: CardToken }): void;
  reject(error: HostedFieldsError): void;
}

function mount(platform: Platform, given: MountOptions | undefined): HostedFields {
  // Called from plain JavaScript: nothing here is taken on trust from the types.
  const options: Partial<MountOptions> = given || {};
  if (typeof options.clientToken !== 'string' || !options.clientToken) {
    throw hostedFieldsError('invalid_options', 'mount() needs the clientToken your server minted.');
  }
  const clientToken: string = options.clientToken;
  const container = typeof options.container === 'string' ? document.querySelector(options.container) : options.container;
  if (!container || typeof container.appendChild !== 'function') {
    throw hostedFieldsError('invalid_options', 'mount() needs a container element or a selector of one.');
  }
  const iframe = document.createElement('iframe');
  iframe.src = `${platform.frameUrl}?origin=${encodeURIComponent(window.location.origin)}`;
  iframe.title = 'Card details';
  iframe.setAttribute('scrolling', 'no');
  iframe.style.border = '0';
  iframe.style.width = '100%';
  iframe.style.height = '130px';
  iframe.style.display = 'block';
  iframe.style.overflow = 'hidden';

  const pending = new Map<number, Pending>();
  let nextId = 1;
  let destroyed = false;
  let settleReady!: (error?: HostedFieldsError) => void;
  const ready = new Promise<void>((resolve, reject) => {
    settleReady = (error) => (error ? reject(error) : resolve());
  });
  ready.catch(() => {});
  const timer = setTimeout(
    () => {
      settleReady(hostedFieldsError('frame_unavailable', 'The card fields did not load.'));
    },
    typeof options.timeoutMs === 'number' ? options.timeoutMs : DEFAULT_TIMEOUT_MS,
  );

  function send(message: PageMessage): void {
    const posted: Posted<PageMessage> = { ...message, source: MESSAGE_SOURCE };
    iframe.contentWindow?.postMessage(posted, platform.origin);
  }

  function onMessage(event: MessageEvent<unknown>): void {
    if (event.origin !== platform.origin || event.source !== iframe.contentWindow) return;
    const m = record(event.data);
    if (!m || m.source !== MESSAGE_SOURCE) return;
    if (m.type === 'ready') {
      clearTimeout(timer);
      if (typeof m.height === 'number' && m.height > 0) iframe.style.height = `${Math.ceil(m.height)}px`;
      send({ type: 'init', clientToken, styles: options.styles || {} });
      settleReady();
    } else if (m.type === 'change') {
      if (typeof options.onChange === 'function') options.onChange({ complete: m.complete === true });
    } else if (m.type === 'result' && typeof m.id === 'number') {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      const token = record(m.token);
      if (token) {
        p.resolve({ token: { id: String(token.id), createdAt: String(token.createdAt), expiratedAt: String(token.expiratedAt) } });
      } else {
        const e = record(m.error) ?? {};
        p.reject(hostedFieldsError(String(e.code || 'tokenization_failed'), String(e.message || 'The card could not be tokenized.'), e.field));
      }
    }
  }

  window.addEventListener('message', onMessage);
  container.appendChild(iframe);

  const destroyedError = () => hostedFieldsError('destroyed', 'These fields were destroyed.');
  return {
    ready: () => ready,
    tokenize: () => {
      if (destroyed) return Promise.reject(destroyedError());
      return ready.then(
        () =>
          new Promise<{ token: CardToken }>((resolve, reject) => {
            if (destroyed) {
              reject(destroyedError());
              return;
            }
            const id = nextId++;
            pending.set(id, { resolve, reject });
            send({ type: 'tokenize', id });
          }),
      );
    },
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      iframe.parentNode?.removeChild(iframe);
      settleReady(destroyedError());
      for (const p of pending.values()) p.reject(destroyedError());
      pending.clear();
    },
  };
}

/** Defines `window.MorHostedFields` once, for the platform this script was loaded from. */
function install(): void {
  if (window.MorHostedFields) return;
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement) || !script.src) throw new Error('MorHostedFields: load sdk.js with a <script src="..."> tag');
  const platform: Platform = { origin: new URL(script.src).origin, frameUrl: new URL('frame', script.src).href.split('?')[0]! };
  window.MorHostedFields = { mount: (options) => mount(platform, options) };
}

install();
