/**
 * The hosted-fields frame's script (`GET /api/v1/hosted-fields/frame.js`, this file bundled), run by the frame page
 * (`GET /api/v1/hosted-fields/frame?origin=<page origin>`, `shared/customers/hosted-fields.frame.ts`) that holds the card
 * number, expiry and CVC inputs. It formats them, receives the client token from the parent page, posts the card to
 * `POST /api/v1/hosted-fields/tokens` on its own origin and answers the parent with the token only.
 *
 * It accepts messages only from its parent window with the origin the page named, and posts only to that origin
 * (`hosted-fields-protocol.ts`). Card values go to the tokenize endpoint only; the parent receives
 * `{id, createdAt, expiratedAt}` or an error code and message that never repeat them.
 */
import { MESSAGE_SOURCE, record, STYLE_KEYS, type FieldName, type FrameMessage, type Posted } from './hosted-fields-protocol.ts';

/** The tokenize endpoint's body fields, and the input each comes from (to name the field a refusal is about). */
const FIELD_OF: Readonly<Record<string, FieldName>> = {
  primaryAccountNumber: 'number',
  cardVerificationValue: 'cvc',
  expirationMonth: 'expiry',
  expirationYear: 'expiry',
};
const FIELDS: readonly FieldName[] = ['number', 'expiry', 'cvc'];

/** The tokenize endpoint's body. */
interface Card {
  primaryAccountNumber: string;
  cardVerificationValue: string;
  expirationMonth: number;
  expirationYear: number;
}

function inputNamed(id: FieldName): HTMLInputElement {
  const input = document.getElementById(id);
  if (!(input instanceof HTMLInputElement)) throw new Error(`The frame has no #${id} input.`);
  return input;
}

const digits = (value: string): string => value.replace(/\D/g, '');

/** The origin of the page that framed this one (the one it named), or null when the frame must do nothing. */
function parentPageOrigin(): string | null {
  const origin = new URLSearchParams(window.location.search).get('origin');
  if (!origin || window.parent === window) return null;
  // The CSP's frame-ancestors already holds the frame to this origin; where the browser names the parent, check it too.
  const ancestors: DOMStringList | undefined = window.location.ancestorOrigins;
  if (ancestors?.length && ancestors[0] !== origin) return null;
  return origin;
}

function start(parentOrigin: string): void {
  const inputs: Readonly<Record<FieldName, HTMLInputElement>> = { number: inputNamed('number'), expiry: inputNamed('expiry'), cvc: inputNamed('cvc') };
  let clientToken: string | null = null;
  let busy = false;
  let complete = false;

  function post(message: FrameMessage): void {
    const posted: Posted<FrameMessage> = { ...message, source: MESSAGE_SOURCE };
    window.parent.postMessage(posted, parentOrigin);
  }

  function format(): void {
    const n = digits(inputs.number.value).slice(0, 19);
    inputs.number.value = n.replace(/(\d{4})(?=\d)/g, '$1 ');
    const e = digits(inputs.expiry.value).slice(0, 4);
    inputs.expiry.value = e.length > 2 ? `${e.slice(0, 2)} / ${e.slice(2)}` : e;
    inputs.cvc.value = digits(inputs.cvc.value).slice(0, 4);
  }

  /** The card as the tokenize endpoint takes it, or null while a field is incomplete. */
  function card(): Card | null {
    const n = digits(inputs.number.value);
    const e = digits(inputs.expiry.value);
    const c = digits(inputs.cvc.value);
    if (n.length < 12 || e.length !== 4 || c.length < 3) return null;
    return {
      primaryAccountNumber: n,
      cardVerificationValue: c,
      expirationMonth: parseInt(e.slice(0, 2), 10),
      expirationYear: 2000 + parseInt(e.slice(2), 10),
    };
  }

  function markInvalid(field: FieldName | undefined): void {
    for (const name of FIELDS) {
      if (name === field) inputs[name].setAttribute('aria-invalid', 'true');
      else inputs[name].removeAttribute('aria-invalid');
    }
  }

  for (const name of FIELDS) {
    inputs[name].addEventListener('input', () => {
      format();
      inputs[name].removeAttribute('aria-invalid');
      const now = card() !== null;
      if (now !== complete) {
        complete = now;
        post({ type: 'change', complete });
      }
    });
  }
  document.getElementById('fields')?.addEventListener('submit', (event) => event.preventDefault());

  function applyStyles(given: unknown): void {
    const styles = record(given);
    if (!styles) return;
    for (const key of STYLE_KEYS) {
      const value = styles[key];
      if (typeof value === 'string' && value.length <= 100) document.body.style[key] = value;
    }
  }

  /** The field a refusal names in its details (`primaryAccountNumber: …`), if any. */
  function fieldOf(json: Readonly<Record<string, unknown>>): FieldName | undefined {
    const details = typeof json.details === 'string' ? json.details : '';
    const name = Object.keys(FIELD_OF).find((n) => details.includes(n));
    return name === undefined ? undefined : FIELD_OF[name];
  }

  function fail(id: number, code: string, message: string, field?: FieldName): void {
    markInvalid(field);
    post({ type: 'result', id, error: { code, message, field } });
  }

  async function tokenize(id: number): Promise<void> {
    if (clientToken === null) return fail(id, 'frame_unavailable', 'The card fields are not ready yet.');
    if (busy) return fail(id, 'busy', 'A tokenization is already running.');
    const body = card();
    if (body === null) {
      const missing = digits(inputs.number.value).length < 12 ? 'number' : digits(inputs.expiry.value).length !== 4 ? 'expiry' : 'cvc';
      return fail(id, 'incomplete', 'Enter the card number, expiry and CVC.', missing);
    }
    busy = true;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    try {
      let res: Response;
      try {
        res = await fetch('tokens', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${clientToken}`,
            'x-hosted-fields-origin': parentOrigin,
          },
          body: JSON.stringify(body),
          credentials: 'omit',
          cache: 'no-store',
          signal: controller.signal,
        });
      } catch {
        return fail(id, 'network_error', 'The card could not be sent; check the connection and try again.');
      }
      const json = record(await res.json().catch(() => null));
      const data = record(json?.data);
      if (res.ok && data) {
        markInvalid(undefined);
        post({ type: 'result', id, token: { id: String(data.id), createdAt: String(data.createdAt), expiratedAt: String(data.expiratedAt) } });
      } else {
        const refusal = json ?? {};
        fail(id, String(refusal.errorCode || 'tokenization_failed'), String(refusal.message || 'The card could not be tokenized.'), fieldOf(refusal));
      }
    } finally {
      clearTimeout(timer);
      busy = false;
    }
  }

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.origin !== parentOrigin || event.source !== window.parent) return;
    const m = record(event.data);
    if (!m || m.source !== MESSAGE_SOURCE) return;
    if (m.type === 'init' && clientToken === null && typeof m.clientToken === 'string') {
      clientToken = m.clientToken;
      applyStyles(m.styles);
    } else if (m.type === 'tokenize' && typeof m.id === 'number') {
      void tokenize(m.id);
    }
  });

  post({ type: 'ready', height: document.documentElement.scrollHeight });
}

const parentOrigin = parentPageOrigin();
if (parentOrigin !== null) start(parentOrigin);
