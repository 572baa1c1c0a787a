// Message markers (ARCHITECTURE.md): remark-directive syntax stored inside message content. The server writes
// them with these builders; the SPA's renderer parses the same syntax with remark-directive.

export type ErrorMarkerType = 'llm' | 'max-tokens';

/** Attribute values are quoted; a quote or newline inside would end the directive, so they are escaped away. */
function attr(value: string): string {
  return value.replace(/["\n\r]/g, (c) => (c === '"' ? '&quot;' : ' '));
}

export const imageMarker = (url: string, alt = '') => `::image{url="${attr(url)}" alt="${attr(alt)}"}`;
export const documentMarker = (url: string, name: string) => `::document{url="${attr(url)}" name="${attr(name)}"}`;
export const errorMarker = (type: ErrorMarkerType, text: string) => `:::error{type="${type}"}\n${text}\n:::`;
export const toolsMarker = (text: string, label?: string) =>
  `:::tools${label ? `{label="${attr(label)}"}` : ''}\n${text}\n:::`;
