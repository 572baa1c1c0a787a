import type { Root } from 'mdast';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { SKIP, visit } from 'unist-util-visit';
import { linkContext } from '../../../shared/markdown-links';
import { isOwnFileUrl, safeUrl, type OwnFileScope } from '../../../shared/markers';

// Assistant text is written by a model, and a prompt injection (a web page, an uploaded document) can make it
// write an image marker for a tracking pixel or a document marker passing a stranger's file off as ours. Only
// the server's own file URLs (shared/markers.ts, isOwnFileUrl) may stay markers or images; the SPA's renderer
// checks the same rule (src/ui/markdown/remark-markers.ts), this keeps stored replies and other API clients safe.
//
// A foreign marker or image becomes an ordinary markdown link rather than being dropped: the reader still sees
// what the model pointed to and may follow it with a click, but nothing is fetched on its own and nothing looks
// like one of our downloads. An unsafe URL (javascript:, data:...) keeps only its label as text.

/** The text is parsed as the SPA parses it, so code blocks and prose that merely look like markers are left alone. */
const parser = unified().use(remarkParse).use(remarkGfm).use(remarkDirective).freeze();

/** Cheap test first: most replies have no marker and no image, and this runs on every reply that is saved. */
const MAYBE = /:(?:image|document)\b|!\[/;

/** Whose files are ours: the origin and path of PUBLIC_URL (the app may be served under a path). */
export function ownFileScope(publicUrl: string | undefined): OwnFileScope {
  if (!publicUrl) return {};
  try {
    const url = new URL(publicUrl);
    return { origin: url.origin, basePath: url.pathname };
  } catch {
    return {};
  }
}

/** Every ASCII punctuation may be backslash-escaped in markdown: the label stays literal text. */
const escapeText = (text: string) => text.replace(/\s+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');

/** An angle-bracket destination holds anything but `<`, `>`, a line break (and `\`, which would escape). */
const escapeDestination = (url: string) => url.replace(/[<>\\\s]/g, (c) => encodeURIComponent(c));

function linkOrText(url: string, label: string, insideLink: boolean): string {
  const safe = safeUrl(url);
  const text = escapeText(label || url);
  return safe && !insideLink ? `[${text}](<${escapeDestination(safe)}>)` : text;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Assistant text with every image or document marker, and every markdown image, that points outside our own
 * files turned into a plain link (see above). Text without any is returned as it is (the same string).
 * `publicUrl`: the server's PUBLIC_URL (config.publicUrl); root-relative file URLs are ours in any case.
 */
export function neutraliseForeignMarkers(text: string, publicUrl?: string): string {
  if (!MAYBE.test(text)) return text;
  const scope = ownFileScope(publicUrl);
  const tree = parser.parse(text) as Root;
  const { definitions, insideLink } = linkContext(tree);
  const foreign = (url: string | null | undefined) => Boolean(url?.trim()) && !isOwnFileUrl(url, scope);

  const edits: Edit[] = [];
  visit(tree, (node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    if (node.type === 'image' || node.type === 'imageReference') {
      const url = node.type === 'image' ? node.url : definitions.get(node.identifier);
      if (!url || !foreign(url)) return;
      // Outside a link, dropping the "!" makes it the link it would have been; inside one, only its words stay.
      edits.push(insideLink.has(node) ? { start, end, text: escapeText(node.alt ?? '') } : { start, end: start + 1, text: '' });
      return;
    }
    if (node.type !== 'leafDirective' && node.type !== 'textDirective' && node.type !== 'containerDirective') return;
    if (node.name !== 'image' && node.name !== 'document') return;
    const url = node.attributes?.url;
    if (!url || !foreign(url)) return SKIP;
    const label = (node.name === 'image' ? node.attributes?.alt : node.attributes?.name)?.trim() ?? '';
    edits.push({ start, end, text: linkOrText(url.trim(), label, insideLink.has(node)) });
    return SKIP;
  });
  if (edits.length === 0) return text;

  let out = '';
  let at = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    if (edit.start < at) continue; // inside one already rewritten
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}
