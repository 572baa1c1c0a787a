import type { Paragraph, Root, RootContent } from 'mdast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import { SKIP, visit } from 'unist-util-visit';
import type { ErrorMarkerType } from '../../../contract/markers';

// The message markers (contract/markers.ts) parsed by remark-directive become elements with these tag names;
// the renderer maps them to components and the copy pipeline to plain HTML. Pure: no React, no DOM.

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

const SAFE_PROTOCOL = /^(https?|mailto)$/i;

/**
 * The URL if it is relative or http(s)/mailto, else null (no `javascript:`, `data:`, `vbscript:`...).
 * Same test as react-markdown's defaultUrlTransform with a shorter list of protocols.
 */
export function safeUrl(value: string | null | undefined): string | null {
  const url = (value ?? '').trim();
  if (!url) return null;
  const colon = url.indexOf(':');
  const question = url.indexOf('?');
  const hash = url.indexOf('#');
  const slash = url.indexOf('/');
  if (
    colon === -1 ||
    (slash !== -1 && colon > slash) ||
    (question !== -1 && colon > question) ||
    (hash !== -1 && colon > hash) ||
    SAFE_PROTOCOL.test(url.slice(0, colon))
  ) {
    return url;
  }
  return null;
}

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

/**
 * remark plugin (after remark-directive): maps `::image`, `::document`, `:::error` and `:::tools` to marker
 * elements with checked URLs. Any other directive goes back to the text it was written as, so prose such as
 * "Note:this" or a stray ":::" is never swallowed.
 */
export function remarkMarkers() {
  return (tree: Root, file: { value?: unknown }) => {
    const source = typeof file.value === 'string' ? file.value : '';
    visit(tree, (node, index, parent) => {
      if (node.type !== 'containerDirective' && node.type !== 'leafDirective' && node.type !== 'textDirective') return;
      const attributes = node.attributes ?? {};
      const block = node.type !== 'textDirective';
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
