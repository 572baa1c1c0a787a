import remend, { type RemendOptions } from 'remend';

/** Lines of the message markers (image, document, error, tools): they arrive whole, and remend knows nothing of their attributes. */
const MARKER_LINE = /^:{2,3}[a-z]/m;

/**
 * Only what is transient is healed: markers still to come. What would read differently once the text is complete
 * (an escaped `>` in a list, a single `~`, raw HTML, which shows as text here) is left as the finished reply shows it.
 */
const OPTIONS: RemendOptions = {
  linkMode: 'text-only',
  images: false,
  katex: false,
  inlineKatex: false,
  htmlTags: false,
  comparisonOperators: false,
  singleTilde: false,
};

/**
 * The block still being streamed, as it will read once its closing markers arrive (remend): `**bold` is bold, an
 * open code span is code, a link whose address is still coming shows as its text, instead of raw asterisks,
 * backticks and brackets that vanish a moment later. A block holding a marker is left as it is.
 */
export function healOpenBlock(text: string): string {
  return MARKER_LINE.test(text) ? text : remend(text, OPTIONS);
}
