/**
 * Whether a form field holds a secret: a password field, or one whose name, id, label, placeholder or
 * autocomplete says credential, one-time code or card. Its value is never copied out of the page
 * (annotate's picker masks it, a canvas import shows a fixed mask). Runs in the page as a kit helper
 * (pageFunctionWith): self-contained, no closure.
 */
export function isSecretField(el: Element): boolean {
  if (el instanceof HTMLInputElement && el.type === 'password') return true;
  const hints = ['name', 'id', 'autocomplete', 'aria-label', 'placeholder']
    .map((attr) => el.getAttribute(attr) ?? '')
    .join(' ');
  return (
    /pass|secret|token|otp|one-time|cvv|cvc|csc|pin\b|ssn|card|iban|api[-_]?key/i.test(hints) ||
    /\bcc-/.test(el.getAttribute('autocomplete') ?? '')
  );
}
