/**
 * The button Enter presses. Implicit submission (HTML, "4.10.21.2 Implicit submission") clicks a form's first submit
 * button in tree order; in forms whose first submit button is a side step (换一张 for the captcha, the region step of
 * the address form), Enter in any field ran that step and the typed passwords were lost. Rendered as the first child
 * of such a form, this copy of the main button takes Enter; it is out of sight, out of the tab order and hidden from
 * assistive technology (the visible main button stays where it is). Works without JavaScript and in old engines.
 */
export function DefaultSubmit({ intent, label }: { intent: string; label: string }) {
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      className="default-submit"
      tabIndex={-1}
      aria-hidden="true"
    >
      {label}
    </button>
  );
}
