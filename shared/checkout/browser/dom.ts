/** The checkout page's DOM helpers: its elements by id (typed, or an error naming the missing one) and new ones. */

export function $(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (!node) throw new Error(`The page has no #${id}.`);
  return node;
}
function typed<T extends HTMLElement>(id: string, kind: { new (): T; prototype: T }): T {
  const node = $(id);
  if (!(node instanceof kind)) throw new Error(`#${id} is not a ${kind.name}.`);
  return node;
}
export const input = (id: string): HTMLInputElement => typed(id, HTMLInputElement);
export const select = (id: string): HTMLSelectElement => typed(id, HTMLSelectElement);
export const button = (id: string): HTMLButtonElement => typed(id, HTMLButtonElement);
export function text(id: string, value: unknown): void {
  $(id).textContent = value == null ? '' : String(value);
}
export function show(id: string, visible: boolean): void {
  $(id).hidden = !visible;
}
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Readonly<Record<string, string>> = {},
  children: readonly Node[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.appendChild(c);
  return node;
}
export function focusFirstInvalid(): void {
  const first = document.querySelector<HTMLElement>('[aria-invalid=true]');
  if (first) first.focus();
}
