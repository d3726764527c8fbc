/**
 * The dashboard pages' one script: progressive enhancement only, every page works without it.
 *
 * - `button[data-copy=<id>]` copies the text of the element `<id>` (a secret shown once) and says so.
 * - `form[data-confirm=<question>]` asks before it is sent (revoking, removing).
 * - A form's submit buttons are disabled once it is sent, so a double click sends it once (the server holds the
 *   same rule with the form's idempotency key).
 * - `time[datetime]` is shown in the browser's time zone (its `title` keeps the UTC time).
 * - `[data-preview]` forms (checkout settings) show their colours on the preview as they change.
 * - `form[data-logo-upload=<url>]` (checkout settings, hidden without the script, whose `[data-without-script]` note it
 *   hides) sends the chosen image to the dashboard API as base64 JSON (`PUT`, this origin, the session cookie), then
 *   opens `data-done`; a refusal's message is shown in the form.
 * - `form[data-policy-upload=<url>]` (checkout settings, hidden without the script like the logo's) checks the chosen
 *   file is a PDF (its type and its `%PDF-` signature) of at most `data-max-bytes`, asks the dashboard API for a
 *   presigned PUT of exactly its size (`POST <url>/<policy type>/upload`), PUTs the file straight to storage with the
 *   headers answered, then opens `data-done`; a refusal is shown in the form.
 */

const announce = (text: string) => {
  const region = document.getElementById('announce');
  if (region) region.textContent = text;
};

function copyButtons() {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const source = document.getElementById(button.dataset.copy ?? '');
      if (!source) return;
      try {
        await navigator.clipboard.writeText(source.textContent ?? '');
        button.textContent = 'Copied';
        announce('Copied to the clipboard.');
      } catch {
        const range = document.createRange();
        range.selectNodeContents(source);
        const selection = window.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
        announce('Selected: press Ctrl+C or Cmd+C to copy.');
      }
    });
  }
}

function forms() {
  for (const form of document.querySelectorAll<HTMLFormElement>('form')) {
    form.addEventListener('submit', (event) => {
      const question = form.dataset.confirm;
      if (question && !window.confirm(question)) {
        event.preventDefault();
        return;
      }
      if (form.method.toLowerCase() !== 'post') return;
      // Sent once: the buttons are disabled after this event, so the browser still submits the one pressed.
      setTimeout(() => {
        for (const b of form.querySelectorAll<HTMLButtonElement>('button[type=submit], button:not([type])')) b.disabled = true;
      }, 0);
    });
  }
}

/** A time in the browser's zone, named (`Jan 7, 2027, 6:00 PM GMT+9`): the page's own text says UTC. */
const localTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

function times() {
  for (const time of document.querySelectorAll<HTMLTimeElement>('time[datetime]')) {
    const at = new Date(time.dateTime);
    if (!Number.isNaN(at.getTime()) && time.dateTime.includes('T')) time.textContent = localTime.format(at);
  }
}

function preview() {
  const form = document.querySelector<HTMLFormElement>('form[data-preview]');
  const target = document.getElementById(form?.dataset.preview ?? '');
  if (!form || !target) return;
  const apply = () => {
    // A value the server refused (aria-invalid) is not drawn until it is changed: the saved one is.
    for (const input of form.querySelectorAll<HTMLInputElement>('input[data-preview-var]')) {
      const value = (input.hasAttribute('aria-invalid') ? (input.dataset.saved ?? '') : input.value).trim();
      if (/^#[0-9a-fA-F]{6}$/.test(value)) target.style.setProperty(`--preview-${input.dataset.previewVar}`, value);
    }
    const name = form.querySelector<HTMLInputElement>('input[data-preview-name]');
    const label = target.querySelector<HTMLElement>('[data-preview-name-target]');
    if (name && label) label.textContent = name.value.trim() || label.dataset.previewNameTarget || '';
  };
  form.addEventListener('input', (e) => {
    (e.target as HTMLElement).removeAttribute('aria-invalid');
    apply();
  });
  apply();
}

const LOGO_MAX_BYTES = 512 * 1024;

/**
 * Takes over a file upload form that needs the script: shows it, hides the page's notes for browsers without the
 * script, and answers the form and its `say`, which shows a refusal in the form's error line (`#<errorId>`) and
 * enables its submit button again.
 */
function uploadForm(selector: string, errorId: string) {
  const form = document.querySelector<HTMLFormElement>(selector);
  if (!form) return null;
  form.hidden = false;
  for (const note of document.querySelectorAll<HTMLElement>('[data-without-script]')) note.hidden = true;
  const error = form.querySelector<HTMLElement>(`#${errorId}`);
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
  const say = (text: string) => {
    if (button) button.disabled = false;
    if (!error) return;
    error.textContent = text;
    error.hidden = false;
  };
  return { form, error, button, say };
}

/** The message of a refused dashboard API answer, or `fallback` when it has none. */
const refusalOf = async (res: Response, fallback: string) => ((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? fallback;

function logoUpload() {
  const upload = uploadForm('form[data-logo-upload]', 'logo-error');
  if (!upload) return;
  const { form, say } = upload;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const file = form.querySelector<HTMLInputElement>('input[type=file]')?.files?.[0];
    if (!file) return say('Choose an image first.');
    if (file.size > LOGO_MAX_BYTES) return say('The image is larger than 512 KiB: choose a smaller one.');
    const data = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
    const res = await fetch(form.dataset.logoUpload ?? '', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contentType: file.type, data }),
      credentials: 'same-origin',
    });
    if (res.ok) return window.location.assign(form.dataset.done ?? window.location.href);
    say(await refusalOf(res, `The logo was not saved (HTTP ${res.status}).`));
  });
}

const PDF_TYPE = 'application/pdf';

/** The answer of the dashboard API to a policy upload request (what the script uses of it). */
interface PolicyUpload {
  uploadUrl: string;
  method: string;
  headers: Record<string, string>;
}

function policyUpload() {
  const upload = uploadForm('form[data-policy-upload]', 'policy-error');
  if (!upload) return;
  const { form, error, button, say } = upload;
  const maxBytes = Number(form.dataset.maxBytes);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (error) error.hidden = true;
    const type = form.querySelector<HTMLSelectElement>('select')?.value ?? '';
    const file = form.querySelector<HTMLInputElement>('input[type=file]')?.files?.[0];
    if (!file) return say('Choose a PDF file first.');
    const signature = await file.slice(0, 5).text();
    // Some systems give a file no type: its name and signature then say it is a PDF.
    const pdfType = file.type === PDF_TYPE || (file.type === '' && /\.pdf$/i.test(file.name));
    if (!pdfType || signature !== '%PDF-') return say(`${file.name} is not a PDF: a policy document must be a PDF file.`);
    if (file.size > maxBytes) return say(`${file.name} is larger than 10 MiB: choose a smaller PDF.`);
    if (button) button.disabled = true;
    announce('Uploading the PDF…');
    const res = await fetch(`${form.dataset.policyUpload ?? ''}/${encodeURIComponent(type)}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contentType: PDF_TYPE, size: file.size }),
      credentials: 'same-origin',
    });
    if (!res.ok) return say(await refusalOf(res, `The PDF was not uploaded (HTTP ${res.status}).`));
    const presigned = (await res.json()) as PolicyUpload;
    // Content-Length is the browser's to send: it is the file's size, which the URL is signed for.
    const headers = Object.fromEntries(Object.entries(presigned.headers).filter(([name]) => name.toLowerCase() !== 'content-length'));
    try {
      const put = await fetch(presigned.uploadUrl, { method: presigned.method, headers, body: file, credentials: 'omit' });
      if (!put.ok) return say(`Storage refused the PDF (HTTP ${put.status}): try again.`);
    } catch {
      return say('The PDF could not be sent to storage: check the connection and try again.');
    }
    window.location.assign(form.dataset.done ?? window.location.href);
  });
}

function start() {
  copyButtons();
  forms();
  times();
  preview();
  logoUpload();
  policyUpload();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
