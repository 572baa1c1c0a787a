/**
 * react-aria's Button tells screen readers that it became busy and then done through its live announcer: a
 * visually hidden `[data-live-announcer]` region, into which it puts a `role="img"` node labelled by the button's
 * id (aria-labelledby), kept there for 7 s. When the button goes away meanwhile (the Save of a dialog that closes
 * once saved), that node is an image without a name: what axe reports as role-img-alt, and nothing a screen
 * reader can read. So each such node gets the name it was announced with as its aria-label too, which the
 * accessible name falls back to once the reference dangles; one announced with no words at all is taken out.
 *
 * Only the body's direct children are watched (the announcer is put first in the body when first used), then only
 * the announcer's own subtree: nothing of the page's own changes (a reply streaming in) passes through here.
 */
export function nameLiveAnnouncements(doc: Document): () => void {
  const nameOf = (el: Element | null) => (el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '');

  const name = (node: Node) => {
    if (!(node instanceof Element) || node.getAttribute('role') !== 'img' || node.hasAttribute('aria-label')) return;
    const ids = (node.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
    const label = ids.map((id) => nameOf(doc.getElementById(id))).filter(Boolean).join(' ');
    if (label) node.setAttribute('aria-label', label);
    else node.remove();
  };

  const announcements = new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(name);
  });
  const watch = (node: Node) => {
    if (!(node instanceof Element) || !node.hasAttribute('data-live-announcer')) return;
    announcements.observe(node, { childList: true, subtree: true });
    node.querySelectorAll('[role="img"]').forEach(name);
  };
  const body = new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(watch);
  });
  body.observe(doc.body, { childList: true });
  doc.body.childNodes.forEach(watch);
  return () => {
    body.disconnect();
    announcements.disconnect();
  };
}

let installed = false;

/** Once per page, in a browser (not while the build prerenders /login). */
export function installLiveAnnouncerNames() {
  if (installed || typeof document === 'undefined' || typeof MutationObserver === 'undefined' || !document.body) return;
  installed = true;
  nameLiveAnnouncements(document);
}
