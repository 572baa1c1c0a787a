import { useEffect } from 'react';

/**
 * Marks the document once the app has rendered or hydrated (effects run after the commit): `<html data-live>`.
 * A prerendered page looks finished before it works, and its controls restyle as it hydrates; the browser tests'
 * accessibility checks (test/e2e/helpers/axe.ts) wait for this mark instead of guessing from one control per page.
 */
export function LiveMarker() {
  useEffect(() => {
    document.documentElement.dataset.live = '';
  }, []);
  return null;
}
