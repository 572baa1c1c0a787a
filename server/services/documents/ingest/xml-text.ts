// Just enough XML and HTML reading for the text of OOXML parts and mammoth's HTML (extract-docx.ts): both are machine-written and
// simple, so a forward scan with indexOf is enough and far faster than building a DOM. No pattern here may
// backtrack over the input: an uploaded file is hostile until read. A lazy `<t>([\s\S]*?)</t>` tried at each of
// 200,000 unclosed `<t>` scanned to the end of the part every time (hours for 1 MB); indexOf scans each stretch once.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * Entities decoded (named ones XML and mammoth use, and numeric ones). The pattern is linear: each try starts at
 * an '&', which none of its classes matches, so no two tries scan the same characters.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/** XML's white space, and HTML's: what may follow a tag's name before its attributes. */
const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\f';

/** One element as found: its start tag (`<c r="A1" t="s">`, attributes and all) and the raw XML inside it. */
export interface XmlElement {
  tag: string;
  /** Empty for a self-closing element (`<c r="B2"/>`). */
  body: string;
}

/**
 * Every element named `name` (e.g. 'a:p') in `xml`, in document order; elements of one name are taken not to nest
 * (true of the OOXML elements read here). A start tag without its end ends the scan: nothing after it can be
 * closed either. Each character is looked at a bounded number of times, however hostile the part.
 */
export function elements(xml: string, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const open = `<${name}`;
  const close = `</${name}>`;
  let from = 0;
  for (;;) {
    const start = xml.indexOf(open, from);
    if (start === -1) break;
    const after = start + open.length;
    const next = xml[after];
    // '<a:pPr' is not '<a:p': the name must end here.
    if (next !== '>' && next !== '/' && !isSpace(next)) {
      from = after;
      continue;
    }
    const end = next === '>' ? after : xml.indexOf('>', after);
    if (end === -1) break;
    const tag = xml.slice(start, end + 1);
    if (xml[end - 1] === '/') {
      out.push({ tag, body: '' });
      from = end + 1;
      continue;
    }
    const closeAt = xml.indexOf(close, end + 1);
    if (closeAt === -1) break;
    out.push({ tag, body: xml.slice(end + 1, closeAt) });
    from = closeAt + close.length;
  }
  return out;
}

/** Every start (or empty) tag named `name` (`<sheet name="Q1" r:id="rId2"/>`), for its attributes. */
export function startTags(xml: string, name: string): string[] {
  const out: string[] = [];
  const open = `<${name}`;
  let from = 0;
  for (;;) {
    const start = xml.indexOf(open, from);
    if (start === -1) break;
    const after = start + open.length;
    if (!isSpace(xml[after])) {
      from = after;
      continue;
    }
    const end = xml.indexOf('>', after);
    if (end === -1) break;
    out.push(xml.slice(start, end + 1));
    from = end + 1;
  }
  return out;
}

/** The text of every element named `tag` (e.g. 'a:t') inside `xml`, decoded, in document order. */
export function elementTexts(xml: string, tag: string): string[] {
  if (!xml.includes(`<${tag}`)) return [];
  return elements(xml, tag).map((e) => decodeEntities(e.body));
}

/** Compiled once per attribute name: a sheet of 100,000 rows asks millions of times. */
const attributePatterns = new Map<string, RegExp>();

/**
 * An attribute's value on a tag's text (`<x a="1">`), decoded. Linear: a try that finds no closing quote means
 * there is no '"' left, so no later try gets as far as `="`.
 */
export function attribute(tag: string, name: string): string | undefined {
  let re = attributePatterns.get(name);
  if (!re) attributePatterns.set(name, (re = new RegExp(`\\s${name}="([^"]*)"`)));
  const m = re.exec(tag);
  return m ? decodeEntities(m[1]) : undefined;
}

/** Whether the tag between `start` and `end` (without its brackets) is a `br`: `br`, `BR`, `br/`, `br /`. */
export function isLineBreak(html: string, start: number, end: number): boolean {
  if (end - start < 2 || (html[start] !== 'b' && html[start] !== 'B') || (html[start + 1] !== 'r' && html[start + 1] !== 'R')) return false;
  let i = start + 2;
  while (i < end && isSpace(html[i])) i++;
  if (html[i] === '/') i++;
  return i === end;
}
