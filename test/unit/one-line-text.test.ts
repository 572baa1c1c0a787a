import { describe, expect, it } from 'vitest';
import { documentMarker, errorMarker, imageMarker } from '../../shared/markers';
import { oneLineText, textStart } from '../../shared/one-line-text';

describe('a reply as one line of text', () => {
  it('drops markdown syntax and fences, writes markers out, collapses whitespace', () => {
    const reply = [
      imageMarker('/api/v1/files/x.png', 'A "bar" chart'),
      documentMarker('/api/v1/documents/d1', 'report.pdf'),
      '# Findings',
      '> **Costs** rose `10%` \\* overall',
      '1. First',
      '```ts',
      'const a = 1;',
      '```',
      errorMarker('llm', 'The model failed.'),
    ].join('\n');
    expect(oneLineText(reply)).toBe('[Image: A "bar" chart] [Document: report.pdf] Findings Costs rose 10% * overall First const a = 1; The model failed.');
    expect(oneLineText(imageMarker('/api/v1/files/x.png'))).toBe('[Image]');
  });
});

describe('the start of a text', () => {
  it('is the whole text when it fits', () => {
    expect(textStart('Twelve chars', 12)).toBe('Twelve chars');
  });

  it('is cut after a word near the limit, with an ellipsis, never longer than the limit', () => {
    const cut = textStart('The quick brown fox jumps over the lazy dog', 20);
    expect(cut).toBe('The quick brown fox…');
    expect(cut.length).toBeLessThanOrEqual(20);
  });

  it('is cut mid-word when no word ends near the limit', () => {
    expect(textStart('Supercalifragilistic expialidocious', 10)).toBe('Supercali…');
  });
});
