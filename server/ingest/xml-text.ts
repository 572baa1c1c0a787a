// Just enough XML and HTML reading for the text of OOXML parts and mammoth's HTML: both are machine-written,
// well-formed and simple, so a regular-expression scan is enough and far faster than building a DOM.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Entities decoded (named ones XML and mammoth use, and numeric ones). */
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

/** Compiled once per tag or attribute name: a sheet of 100,000 rows asks millions of times. */
const compiled = new Map<string, RegExp>();
function cached(key: string, make: () => RegExp): RegExp {
  let re = compiled.get(key);
  if (!re) compiled.set(key, (re = make()));
  re.lastIndex = 0;
  return re;
}

/** The text of every element named `tag` (e.g. 'a:t') inside `xml`, decoded, in document order. */
export function elementTexts(xml: string, tag: string): string[] {
  const out: string[] = [];
  if (!xml.includes(`<${tag}`)) return out;
  const re = cached(`e:${tag}`, () => new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g'));
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push(decodeEntities(m[1]));
  return out;
}

/** An attribute's value on a tag's text (`<x a="1">`), decoded. */
export function attribute(tag: string, name: string): string | undefined {
  const m = cached(`a:${name}`, () => new RegExp(`\\s${name}="([^"]*)"`)).exec(tag);
  return m ? decodeEntities(m[1]) : undefined;
}

/** Markup removed: what a reader sees of an HTML fragment (tags dropped, entities decoded). */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]+>/g, ''));
}
