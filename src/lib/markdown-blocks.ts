// Splits markdown into top-level blocks that can be parsed and rendered one by one (ARCHITECTURE.md:
// "split the text into blocks, memoise finished blocks, re-render only the open tail block").
//
// The measurement that keeps this hand-written splitter instead of react-markdown re-parsing the whole reply on
// every token (`npx tsx test/bench/render-stream.ts`, also in `npm run bench`; Chromium on this 2-core machine,
// issue 29): per streamed update, median, 0.49 / 0.51 / 0.58 ms at 1k / 5k / 20k tokens against 3.1 / 10.7 / 71.8 ms
// for plain react-markdown (goal 4 ms at 20k). A parser's own block split would mean parsing everything anyway.
//
// A block ends at a blank line, except where a blank line does not end the construct around it:
// - inside a fenced code block (``` or ~~~, closed by the same character, at least as long);
// - inside a container directive (`:::error` ... `:::`, the message markers);
// - inside a list: a blank line followed by an indented line or another list item continues the list
//   (splitting a loose list would change its look and restart ordered numbering);
// - before a line indented by 4 or more (an indented code block goes on across blank lines);
// - inside an HTML block that a blank line does not end (<pre>, <script>, <style>, <textarea>, comments...).
//   HTML shows as text, but its blocks still decide where a fence starts: "```" inside <div> opens nothing.
// Joining two blocks is always safe (the parser sees what it would have seen anyway); only a split in the
// wrong place changes the output, so every doubtful case merges.
//
// Known limits: link reference definitions only resolve inside their own block (footnotes do: see
// joinFootnoteBlocks); a few contrived mixes of lazy continuation lines and raw HTML tags can still be split where
// micromark would not (found only by random soups of constructs, see test/unit/markdown-blocks.test.ts).

const BLANK = /^[ \t\r]*$/;
const LIST_MARKER = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|[ \t]*\r?$)/;
const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const CONTAINER_OPEN = /^ {0,3}(:{3,})[A-Za-z]/;
const CONTAINER_CLOSE = /^ {0,3}(:{3,})[ \t\r]*$/;

// CommonMark HTML blocks. Types 1-5 end at a closing pattern (maybe lines and blank lines later); types 6 and
// 7 at the next blank line (7, a lone complete tag, cannot interrupt a paragraph).
const HTML_UNTIL: Array<[RegExp, RegExp]> = [
  [/^ {0,3}<(?:pre|script|style|textarea)(?:[ \t>]|\r?$)/i, /<\/(?:pre|script|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];
const HTML_BLOCK_NAMES =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|' +
  'fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|' +
  'menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const HTML_BLOCK = new RegExp(`^ {0,3}</?(?:${HTML_BLOCK_NAMES})(?:[ \\t>]|/>|\\r?$)`, 'i');
const HTML_LONE_TAG =
  /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][\w.:-]*(?:[ \t]*=[ \t]*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t\r]*$/;

interface ScanState {
  /** An open fence; `minIndent`: content offset of the list item holding it (0 at the top level). */
  fence: { char: string; length: number; minIndent: number } | null;
  /** Colon counts of the open container directives, outermost first. */
  containers: number[];
  inList: boolean;
  /** Content offsets of the open list items, innermost last. */
  items: number[];
  /** Inside an HTML block: the pattern that ends it, or 'blank' when the next blank line does. */
  html: RegExp | 'blank' | null;
  /** The last line left a paragraph open (a lone HTML tag cannot interrupt one). */
  paragraph: boolean;
  /** The last line was in a block quote (its paragraph may go on lazily). */
  quote: boolean;
}

/** Width of leading whitespace (a tab advances to the next multiple of 4). */
function indentWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) width++;
    else if (c === 9) width += 4 - (width % 4);
    else break;
  }
  return width;
}

/** Lines after which no paragraph is open: ATX heading, thematic break (or "---" underline), empty quote. */
const NOT_PARAGRAPH = /^ {0,3}(?:#{1,6}(?:[ \t]|\r?$)|(?:([-*_])[ \t]*)(?:\1[ \t]*){2,}\r?$|>[ \t]*\r?$)/;
/** "===": a heading underline after a paragraph (then no paragraph is open), else paragraph text. */
const EQUALS_LINE = /^ {0,3}=+[ \t]*\r?$/;
const QUOTE = /^ {0,3}>/;

function feedLine(state: ScanState, line: string): void {
  // A container's closing fence wins over anything open inside it (micromark checks it first), and closes the
  // outermost container it can: one with no more colons than the fence.
  if (state.containers.length > 0) {
    const close = CONTAINER_CLOSE.exec(line);
    const outermost = close ? state.containers.findIndex((colons) => colons <= close[1].length) : -1;
    if (outermost !== -1) {
      state.containers.length = outermost;
      state.fence = null;
      state.html = null;
      state.paragraph = false;
      return;
    }
  }
  if (state.html) {
    if (state.html === 'blank' ? BLANK.test(line) : state.html.test(line)) state.html = null;
    state.paragraph = false;
    return;
  }
  const fence = state.fence;
  if (fence) {
    // A fence in a list item ends with the item, at a line indented less than the item's content.
    if (BLANK.test(line) || indentWidth(line) >= fence.minIndent) {
      const m = FENCE_OPEN.exec(line);
      if (
        m &&
        m[2][0] === fence.char &&
        m[2].length >= fence.length &&
        BLANK.test(m[3]) &&
        indentWidth(m[1]) <= fence.minIndent + 3
      ) {
        state.fence = null;
      }
      return;
    }
    state.fence = null; // and read the line afresh
  }
  const paragraphBefore = state.paragraph;
  state.paragraph = false;
  if (BLANK.test(line)) return;
  const indent = indentWidth(line);
  const items = state.items;

  let rest = line;
  let offset = 0;
  const marker = LIST_MARKER.exec(line);
  if (marker && (state.inList || indent <= 3)) {
    state.inList = true;
    while (items.length > 0 && items[items.length - 1] > indent) items.pop();
    rest = line.slice(marker[0].length);
    offset = indentWidth(marker[0].replace(/[^ \t]/g, ' ')) + (BLANK.test(rest) ? 1 : 0);
    items.push(offset);
  } else if (items.length > 0 && indent < items[items.length - 1]) {
    // Less indented than the item's content: the item ends, unless the line lazily continues its paragraph.
    const interrupts =
      FENCE_OPEN.test(line) || NOT_PARAGRAPH.test(line) || QUOTE.test(line) || HTML_BLOCK.test(line) || HTML_UNTIL.some(([start]) => start.test(line));
    if (!paragraphBefore || interrupts) while (items.length > 0 && items[items.length - 1] > indent) items.pop();
  }
  /** Content offset of the innermost open list item that holds a line indented this much (0: none). */
  const itemAt = (width: number) => {
    for (let i = items.length - 1; i >= 0; i--) if (items[i] <= width) return items[i];
    return 0;
  };

  // A list item may open a fence on its own line ("- ```js").
  const open = FENCE_OPEN.exec(rest);
  if (open) {
    const fenceIndent = offset + indentWidth(open[1]);
    const minIndent = marker ? offset : itemAt(fenceIndent);
    const char = open[2][0];
    // A backtick fence's info string cannot hold a backtick ("```a```" is inline code).
    if (fenceIndent - minIndent <= 3 && !(char === '`' && open[3].includes('`'))) {
      state.fence = { char, length: open[2].length, minIndent };
      return;
    }
  }
  if (marker) {
    state.paragraph = !BLANK.test(rest);
    return;
  }

  for (const [start, end] of HTML_UNTIL) {
    if (start.test(line)) {
      if (!end.test(line.slice(line.indexOf('<') + 2))) state.html = end;
      return;
    }
  }
  if (HTML_BLOCK.test(line) || (!paragraphBefore && HTML_LONE_TAG.test(line))) {
    state.html = 'blank';
    return;
  }

  const container = CONTAINER_OPEN.exec(line);
  if (container) {
    state.containers.push(container[1].length);
    return;
  }
  const lazy = state.inList || state.quote;
  state.quote = QUOTE.test(line);
  if (indent - itemAt(indent) >= 4) state.paragraph = paragraphBefore; // indented code, or more paragraph
  else if (EQUALS_LINE.test(line)) state.paragraph = !paragraphBefore || lazy;
  else state.paragraph = !NOT_PARAGRAPH.test(line);
}

interface Scan {
  blocks: string[];
  /** Offset in the text where each block starts. */
  starts: number[];
}

function scan(text: string, from: number): Scan {
  const blocks: string[] = [];
  const starts: number[] = [];
  const state: ScanState = { fence: null, containers: [], inList: false, items: [], html: null, paragraph: false, quote: false };
  let start = -1;
  let end = -1;
  let sawBlank = false;
  let lastIndent = 0;
  let pos = from;
  while (pos < text.length) {
    const newline = text.indexOf('\n', pos);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(pos, lineEnd);
    const next = newline === -1 ? text.length : newline + 1;
    const blank = BLANK.test(line);

    if (state.fence || state.containers.length > 0 || (state.html && state.html !== 'blank')) {
      feedLine(state, line);
      end = lineEnd;
    } else if (blank) {
      state.html = null;
      state.paragraph = false;
      state.quote = false;
      if (start >= 0) sawBlank = true;
    } else {
      if (start >= 0 && sawBlank) {
        const indent = indentWidth(line);
        // Indented 4+: maybe more of an indented code block; after one, micromark reads the next line as if
        // it could not interrupt it, so keep that too. After a list: another item or a continuation.
        const continues = indent >= 4 || lastIndent >= 4 || (state.inList && (indent > 0 || LIST_MARKER.test(line)));
        if (!continues) {
          blocks.push(text.slice(start, end));
          starts.push(start);
          start = -1;
          state.inList = false;
          state.items = [];
          state.paragraph = false;
        }
      }
      if (start < 0) start = pos;
      sawBlank = false;
      lastIndent = indentWidth(line);
      feedLine(state, line);
      end = lineEnd;
    }
    pos = next;
  }
  if (start >= 0) {
    blocks.push(text.slice(start, end));
    starts.push(start);
  }
  return { blocks, starts };
}

/** The top-level blocks of a markdown text, without the blank lines between them. */
export function splitMarkdownBlocks(text: string): string[] {
  return scan(text, 0).blocks;
}

/**
 * A splitter with memory for a text that grows (a streamed reply). It rescans only from the start of the last
 * block whose boundary is settled, so the cost per call stays flat however long the text is, and the blocks it
 * keeps are the very same strings as before (a `===` check is enough to skip re-rendering them).
 */
export function createBlockSplitter(): (text: string) => string[] {
  let prevText = '';
  let prev: Scan = { blocks: [], starts: [] };
  return (text) => {
    if (text === prevText) return prev.blocks;
    let from = 0;
    let keep = 0;
    // The boundary before the last block was decided by that block's first line; while that line is still
    // incomplete (e.g. "1" that may become "1. item" and join the list above), step back one more block.
    let r = prev.blocks.length - 1;
    while (r >= 0) {
      const lineEnd = prevText.indexOf('\n', prev.starts[r]);
      if (lineEnd !== -1) {
        if (text.length > lineEnd && text.startsWith(prevText.slice(0, lineEnd + 1))) {
          from = prev.starts[r];
          keep = r;
        }
        break;
      }
      r--;
    }
    const tail = scan(text, from);
    prev = {
      blocks: keep > 0 ? prev.blocks.slice(0, keep).concat(tail.blocks) : tail.blocks,
      starts: keep > 0 ? prev.starts.slice(0, keep).concat(tail.starts) : tail.starts,
    };
    prevText = text;
    return prev.blocks;
  };
}

/** A footnote definition's first line: `[^label]: text`. */
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^[^\]\s]+\]:/m;

/**
 * Footnotes only resolve inside one parse: a reference in one block and its definition in another would show as
 * "[^1]" and lose the note. When the text defines a footnote, the blocks
 * from the first one that could hold a reference (`[^`) to the end are joined into one, which then renders the
 * references, their numbers and the notes section exactly as the whole text would. Replies without footnotes
 * (nearly all) keep their blocks.
 */
export function joinFootnoteBlocks(blocks: string[]): string[] {
  if (!blocks.some((block) => FOOTNOTE_DEFINITION.test(block))) return blocks;
  const first = blocks.findIndex((block) => block.includes('[^'));
  if (first === -1 || first === blocks.length - 1) return blocks;
  return [...blocks.slice(0, first), blocks.slice(first).join('\n\n')];
}
