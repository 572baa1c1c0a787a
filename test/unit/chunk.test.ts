import { describe, expect, it } from 'vitest';
import { chunkSections, CHUNK_DEFAULTS } from '../../server/services/documents/ingest/chunk';
import type { Section } from '../../server/services/documents/ingest/sections';

const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

describe('chunkSections', () => {
  it('never joins two sections: each chunk keeps its section\'s place', () => {
    const sections: Section[] = [
      { kind: 'text', place: 'page 1', text: 'One.' },
      { kind: 'text', place: 'page 2', text: 'Two.' },
    ];
    expect(chunkSections(sections)).toEqual([
      { content: 'One.', place: 'page 1' },
      { content: 'Two.', place: 'page 2' },
    ]);
  });

  it('packs paragraphs up to the size and carries the overlap into the next chunk', () => {
    const paragraphs = Array.from({ length: 10 }, (_, i) => `${words(`p${i}w`, 40)}.`);
    const chunks = chunkSections([{ kind: 'text', place: 'Intro', text: paragraphs.join('\n\n') }]);
    expect(chunks.length).toBeGreaterThan(2);
    for (const [i, chunk] of chunks.entries()) {
      expect(chunk.place).toBe('Intro');
      expect(chunk.content.length).toBeLessThanOrEqual(CHUNK_DEFAULTS.size + CHUNK_DEFAULTS.overlap + 2);
      if (i === 0) continue;
      const previous = chunks[i - 1].content;
      const overlap = chunk.content.slice(0, chunk.content.indexOf('\n\n'));
      expect(previous.endsWith(overlap)).toBe(true);
      expect(overlap.length).toBeGreaterThan(CHUNK_DEFAULTS.overlap / 2);
      expect(overlap.length).toBeLessThanOrEqual(CHUNK_DEFAULTS.overlap);
    }
    // Every paragraph is whole in some chunk.
    for (const p of paragraphs) expect(chunks.some((c) => c.content.includes(p))).toBe(true);
  });

  it('cuts a paragraph longer than a chunk at sentence ends, losing nothing', () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} is here.`);
    const chunks = chunkSections([{ kind: 'text', place: null, text: sentences.join(' ') }], { size: 300, overlap: 50 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const s of sentences) expect(chunks.some((c) => c.content.includes(s))).toBe(true);
    // Each chunk's own text (after the carried overlap) starts at a sentence.
    for (const chunk of chunks.slice(1)) expect(chunk.content.split('\n\n').at(-1)).toMatch(/^Sentence number \d+ is here\./);
  });

  it('cuts a text without sentence ends or spaces at the size', () => {
    const chunks = chunkSections([{ kind: 'text', place: null, text: 'x'.repeat(2500) }], { size: 1000, overlap: 150 });
    expect(chunks.map((c) => c.content.replace(/\n\n/g, '')).join('').replace(/x/g, '').length).toBe(0);
    expect(chunks.every((c) => c.content.length <= 1152)).toBe(true);
  });

  it('packs table rows whole, without overlap, naming the sheet and the rows each chunk holds', () => {
    // 99 characters a row: ten rows and their line breaks fill 999 of a chunk's 1,000.
    const rows = Array.from({ length: 30 }, (_, i) => ({ n: i + 2, line: `Name: person ${i}; Note: `.padEnd(99, 'n') }));
    const chunks = chunkSections([{ kind: 'rows', sheet: 'Staff', rows }]);
    expect(chunks.length).toBe(3);
    expect(chunks.map((c) => c.place)).toEqual(['Staff rows 2-11', 'Staff rows 12-21', 'Staff rows 22-31']);
    expect(chunks.flatMap((c) => c.content.split('\n'))).toEqual(rows.map((r) => r.line));
  });

  it('names a single row and a CSV\'s rows without a sheet', () => {
    expect(chunkSections([{ kind: 'rows', sheet: null, rows: [{ n: 2, line: 'a: 1' }] }])).toEqual([{ content: 'a: 1', place: 'row 2' }]);
  });

  it('drops empty sections and blank paragraphs', () => {
    expect(chunkSections([{ kind: 'text', place: 'page 1', text: '\n\n  \n\n' }, { kind: 'rows', sheet: 'S', rows: [] }])).toEqual([]);
  });
});
