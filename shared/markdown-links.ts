import type { Nodes, Root } from 'mdast';
import { visit } from 'unist-util-visit';

/**
 * What the marker checks need to know about a parsed reply's links, for the SPA's renderer
 * (src/ui/markdown/remark-markers.ts) and the server's check (server/services/chat/marker-safety.ts) alike:
 * the URL of every reference definition (`[x]: url`, first one wins as in CommonMark), and every node inside a
 * link (an image there cannot become a link of its own: links do not nest).
 */
export function linkContext(tree: Root): { definitions: Map<string, string>; insideLink: Set<Nodes> } {
  const definitions = new Map<string, string>();
  const insideLink = new Set<Nodes>();
  visit(tree, (node) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node.url);
    if (node.type === 'link' || node.type === 'linkReference') {
      visit(node, (inner) => {
        if (inner !== node) insideLink.add(inner);
      });
    }
  });
  return { definitions, insideLink };
}
