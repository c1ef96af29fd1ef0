// Links that behave like links: a real `<a href>` to the page URL of a view. A plain click
// opens the view in the page (history.pushState through `onOpen`); a middle click, a click
// with a modifier key or "open in new tab" follows the href, which shows the same view.

/** True for a plain primary click (no modifier): the page handles it in place. */
export function isPlainClick(event) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.defaultPrevented;
}

/**
 * Creates a link to a view of the page.
 * @param {string} text link text (written as text)
 * @param {string} href the view's page URL (same as the one the page pushes)
 * @param {() => void} onOpen opens the view in the page
 * @param {Record<string, string>} [attrs] extra attributes (class, title, ...)
 * @returns {HTMLAnchorElement}
 */
export function viewLink(text, href, onOpen, attrs = {}) {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = String(text);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined && value !== null) a.setAttribute(key, value);
  a.addEventListener('click', (event) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    onOpen();
  });
  return a;
}
