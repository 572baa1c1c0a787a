import type { Link, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import { SKIP, visit } from 'unist-util-visit';
import { linkContext } from '../../../shared/markdown-links';
import { isOwnFileUrl, safeUrl, type ErrorMarkerType, type OwnFileScope } from '../../../shared/markers';

export { safeUrl };

// The message markers (shared/markers.ts) parsed by remark-directive become elements with these tag names;
// the renderer maps them to components and the copy pipeline to plain HTML. Pure: no React, no DOM.
//
// Only the server's own file URLs may show as an image or a download card (shared/markers.ts, isOwnFileUrl):
// an image or document marker, or a plain markdown image, that points anywhere else becomes an ordinary link.
// Nothing from another origin is fetched on its own (no tracking pixels, no data leaking through image URLs),
// and a stranger's file never looks like one of ours. The server neutralises them too
// (server/services/chat/marker-safety.ts); this is the renderer's own check, for replies stored before that.

export const MARKER_TAGS = {
  image: 'tanya-image',
  document: 'tanya-document',
  error: 'tanya-error',
  tools: 'tanya-tools',
} as const;

export const ERROR_MARKER_TITLES: Record<ErrorMarkerType, string> = {
  llm: 'The model could not answer',
  'max-tokens': 'The reply reached the token limit',
};

export const DEFAULT_TOOLS_LABEL = 'Tools used';

/** For react-markdown's `urlTransform`: unsafe URLs become ''. */
export function markdownUrlTransform(url: string): string {
  return safeUrl(url) ?? '';
}

type Directive = ContainerDirective | LeafDirective | TextDirective;

/** The file name at the end of a URL path, for a document marker without a name. */
function nameFromUrl(url: string): string {
  const path = url.split(/[?#]/)[0];
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || 'Document';
  } catch {
    return last || 'Document';
  }
}

function setElement(node: Directive, tagName: string, properties: Record<string, string>, keepChildren: boolean) {
  node.data = { ...node.data, hName: tagName, hProperties: properties };
  if (!keepChildren) node.children = [];
}

/** The page's own files: this origin, under the path the app is served from. */
export const PAGE_FILE_SCOPE: OwnFileScope = {
  origin: typeof location === 'undefined' ? undefined : location.origin,
  basePath: import.meta.env.BASE_URL,
};

/** A foreign image or document as a plain link (or its text alone inside another link: links do not nest). */
function asLink(url: string, label: string, insideLink: boolean): PhrasingContent {
  const text = { type: 'text' as const, value: label || url };
  return insideLink ? text : ({ type: 'link', url, children: [text] } satisfies Link);
}

/**
 * remark plugin (after remark-directive): maps `::image`, `::document`, `:::error` and `:::tools` to marker
 * elements with checked URLs. Any other directive goes back to the text it was written as, so prose such as
 * "Note:this" or a stray ":::" is never swallowed. Images and image/document markers whose URL is not one of
 * `scope`'s own files become links.
 */
export function remarkMarkers(scope: OwnFileScope = PAGE_FILE_SCOPE) {
  return (tree: Root, file: { value?: unknown }) => {
    const source = typeof file.value === 'string' ? file.value : '';
    const { definitions, insideLink } = linkContext(tree);
    /** The URL if it is safe but not one of our files (so it must not show as an image or a card). */
    const foreign = (value: string | null | undefined) => {
      const url = safeUrl(value);
      return url && !isOwnFileUrl(url, scope) ? url : null;
    };

    visit(tree, (node, index, parent) => {
      if (node.type === 'image' || node.type === 'imageReference') {
        const url = foreign(node.type === 'image' ? node.url : definitions.get(node.identifier));
        if (url && parent && index !== undefined) {
          parent.children.splice(index, 1, asLink(url, node.alt ?? '', insideLink.has(node)) as never);
        }
        return;
      }
      if (node.type !== 'containerDirective' && node.type !== 'leafDirective' && node.type !== 'textDirective') return;
      const attributes = node.attributes ?? {};
      const block = node.type !== 'textDirective';
      if ((node.name === 'image' || node.name === 'document') && parent && index !== undefined) {
        const url = foreign(attributes.url);
        if (url) {
          const label = (node.name === 'image' ? attributes.alt : attributes.name)?.trim() ?? '';
          const link = asLink(url, label, insideLink.has(node));
          const replacement: Paragraph | PhrasingContent = block ? { type: 'paragraph', children: [link] } : link;
          parent.children.splice(index, 1, replacement as never);
          return [SKIP, index + 1];
        }
      }
      switch (node.name) {
        case 'image':
          setElement(node, MARKER_TAGS.image, { url: safeUrl(attributes.url) ?? '', alt: attributes.alt ?? '' }, false);
          return SKIP;
        case 'document': {
          const url = safeUrl(attributes.url) ?? '';
          const name = attributes.name?.trim() || (url ? nameFromUrl(url) : 'Document');
          setElement(node, MARKER_TAGS.document, { url, name }, false);
          return SKIP;
        }
        case 'error':
          if (!block) break;
          setElement(node, MARKER_TAGS.error, { type: attributes.type === 'max-tokens' ? 'max-tokens' : 'llm' }, true);
          return;
        case 'tools':
          if (!block) break;
          setElement(node, MARKER_TAGS.tools, { label: attributes.label?.trim() || DEFAULT_TOOLS_LABEL }, true);
          return;
      }
      if (!parent || index === undefined) return;
      // Unknown: restore what was written.
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      const raw = start !== undefined && end !== undefined && source ? source.slice(start, end) : `:${node.name}`;
      if (node.type === 'textDirective') {
        parent.children.splice(index, 1, { type: 'text', value: raw });
        return [SKIP, index + 1];
      }
      if (node.type === 'leafDirective') {
        const paragraph: Paragraph = { type: 'paragraph', children: [{ type: 'text', value: raw }] };
        parent.children.splice(index, 1, paragraph);
        return [SKIP, index + 1];
      }
      const opening: Paragraph = { type: 'paragraph', children: [{ type: 'text', value: raw.split('\n', 1)[0] }] };
      parent.children.splice(index, 1, opening, ...(node.children as RootContent[]));
      return index + 1;
    });
  };
}
