/**
 * The customer portal's one script, on its payment method page: it mounts the platform's hosted card fields (the
 * card number never reaches this page: the fields are a frame of the platform's tokenization page) and, when the form
 * is sent, tokenizes the card and sends the form with the token instead.
 */
import type { HostedFields, HostedFieldsError, MorHostedFields } from '../../customers/browser/hosted-fields-sdk.ts';

const form = document.getElementById('card-form') as HTMLFormElement | null;
const container = document.getElementById('card');
const error = document.getElementById('form-error');

function say(message: string): void {
  if (!error) return;
  error.textContent = message;
  error.hidden = false;
}

/** The SDK, from this origin only. */
function loadSdk(src: string): Promise<MorHostedFields> {
  return new Promise((resolve, reject) => {
    const url = new URL(src, window.location.href);
    if (url.origin !== window.location.origin) return reject(new Error('The card form cannot be loaded here.'));
    if (window.MorHostedFields) return resolve(window.MorHostedFields);
    const script = document.createElement('script');
    script.src = url.href;
    script.onload = () => (window.MorHostedFields ? resolve(window.MorHostedFields) : reject(new Error('The card form did not load.')));
    script.onerror = () => reject(new Error('The card form did not load. Reload the page to try again.'));
    document.head.append(script);
  });
}

const fieldNames: Readonly<Record<string, string>> = { number: 'card number', expiry: 'expiry date', cvc: 'security code' };

function refusal(e: Partial<HostedFieldsError> | undefined): string {
  if (e?.field) return `Check the ${fieldNames[e.field] ?? e.field}.`;
  if (e?.code?.startsWith('client_token.') || e?.code?.startsWith('auth.')) return 'The card form has expired. Reload the page and enter the card again.';
  return e?.message || 'The card could not be read. Try again.';
}

async function start(): Promise<void> {
  if (!form || !container) return;
  let fields: HostedFields;
  try {
    const sdk = await loadSdk(form.dataset.sdk ?? '');
    fields = sdk.mount({
      clientToken: form.dataset.clientToken ?? '',
      container,
      styles: { fontFamily: 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif' },
    });
    await fields.ready();
  } catch (e) {
    say(e instanceof Error && e.message ? e.message : 'The card form did not load. Reload the page to try again.');
    return;
  }
  const submit = form.querySelector<HTMLButtonElement>('button[type=submit]');
  if (submit) submit.disabled = false;
  let busy = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    fields
      .tokenize()
      .then(({ token }) => {
        (form.elements.namedItem('token') as HTMLInputElement).value = token.id;
        form.submit();
      })
      .catch((e: unknown) => {
        busy = false;
        say(refusal(e as Partial<HostedFieldsError>));
      });
  });
}

void start();
