import type { Element, Root as HastRoot } from 'hast';
import type { Options as ToHastOptions } from 'mdast-util-to-hast';
import { visit } from 'unist-util-visit';

// Footnotes look the same on screen (assistant-markdown.tsx) and in a copied message (copy-message.ts): both
// build them with mdast-util-to-hast and these options, so numbering, back-links and the section's label agree.

export const FOOTNOTES_LABEL = 'Footnotes';
export const FOOTNOTES_LABEL_CLASS = 'footnotes-label';

/**
 * to-hast options for footnotes. `idPrefix` goes before every footnote id (to-hast's `clobberPrefix`): each
 * message on a screen needs its own, or the links of one message would jump to another's notes.
 * The label is a visible paragraph, not a hidden h2: a pasted copy cannot hide it, and a heading would break
 * the outline of the screen's messages.
 */
export function footnoteOptions(idPrefix: string): ToHastOptions {
  return {
    clobberPrefix: idPrefix,
    footnoteLabel: FOOTNOTES_LABEL,
    footnoteLabelTagName: 'p',
    footnoteLabelProperties: { className: [FOOTNOTES_LABEL_CLASS] },
  };
}

/** to-hast gives the label the fixed id `footnote-label` (not prefixed), referenced by every footnote link. */
const LABEL_ID = 'footnote-label';

/** Prefixes the label's id and the references to it, so two messages with footnotes never share an id. */
export function prefixFootnoteLabel(tree: HastRoot, idPrefix: string): void {
  visit(tree, 'element', (node: Element) => {
    const props = node.properties;
    if (props.id === LABEL_ID) props.id = `${idPrefix}${LABEL_ID}`;
    const describedBy = props.ariaDescribedBy;
    if (Array.isArray(describedBy)) {
      props.ariaDescribedBy = describedBy.map((id) => (id === LABEL_ID ? `${idPrefix}${LABEL_ID}` : id));
    }
  });
}

/** The same as a rehype plugin, for react-markdown. */
export function rehypeFootnoteLabel(idPrefix: string) {
  return (tree: HastRoot) => prefixFootnoteLabel(tree, idPrefix);
}
