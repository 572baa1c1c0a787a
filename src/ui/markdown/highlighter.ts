import { createElement, type ReactNode } from 'react';
import type { RootContent } from 'hast';
import { common, createLowlight } from 'lowlight';
import './highlight.css';

// Loaded lazily by code-block.tsx (dynamic import): lowlight with highlight.js's common grammars and the
// colours stay out of the chunk that renders messages.

const lowlight = createLowlight(common);

function toReact(nodes: RootContent[]): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element') return null;
    const className = node.properties.className;
    return createElement(
      'span',
      { key: index, className: Array.isArray(className) ? className.join(' ') : undefined },
      ...toReact(node.children),
    );
  });
}

/** Highlighted code as React nodes, or null when the language is not one of the common grammars. */
export function highlight(language: string, code: string): ReactNode[] | null {
  if (!lowlight.registered(language)) return null;
  return toReact(lowlight.highlight(language, code).children);
}
