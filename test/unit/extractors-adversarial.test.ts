import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { chunkSections } from '../../server/services/documents/ingest/chunk';
import { extractSections } from '../../server/services/documents/ingest/extract';
import { sectionsFromHtml } from '../../server/services/documents/ingest/extract-docx';
import { extractPptx, extractXlsx } from '../../server/services/documents/ingest/extract-ooxml';
import { withoutTrailingSpaces } from '../../server/services/documents/ingest/extract-pdf';
import { atxHeading, extractMarkdown } from '../../server/services/documents/ingest/extract-text';
import type { Section } from '../../server/services/documents/ingest/sections';
import { elements, startTags } from '../../server/services/documents/ingest/xml-text';
import { ADVERSARIAL_INPUTS } from './adversarial-inputs';

// Every extractor, and chunking, is linear in its input: about 1 MB built against each former weakness (see
// adversarial-inputs.ts) is read in under a second. Before, `# a` + 12,000 spaces + `x` held the extraction worker
// for minutes, and a sheet or slide of unclosed tags for hours.

const SIZE = 1024 * 1024;
const LIMIT_MS = 1000;

/**
 * The CPU time `work` takes in this test process, in ms: the bound is on the extractor's own work, which other
 * processes sharing the machine (other test runs) would otherwise add to a wall-clock measurement.
 */
async function cpuMs(work: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const fill = (unit: string, size: number) => unit.repeat(Math.floor(size / unit.length));

describe('extractors on hostile files of about 1 MB', () => {
  it.each(ADVERSARIAL_INPUTS)('$name: extracted and chunked in under 1 s', async ({ extension, build }) => {
    const bytes = build(SIZE);
    const ms = await cpuMs(async () => chunkSections((await extractSections(extension, bytes)).sections));
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  const html: Array<[string, string]> = [
    ['unclosed <p>', fill('<p>', SIZE)],
    ['a <p with attributes and no end', `<p class="${' '.repeat(SIZE)}`],
    ['unclosed <h1> before text', `${fill('<h1>', SIZE / 2)}${fill('text ', SIZE / 2)}`],
    ['<br without its end', `<p>${fill('<br ', SIZE)}</p>`],
    ['cells nested in cells', `${fill('<td><p>x</p>', SIZE)}`],
  ];
  it.each(html)("mammoth's HTML, %s: split into sections in under 1 s", async (_name, text) => {
    expect(await cpuMs(() => sectionsFromHtml(text))).toBeLessThan(LIMIT_MS);
  });

  const sections: Array<[string, Section[]]> = [
    ['a paragraph with nowhere to cut', [{ kind: 'text', place: null, text: 'w'.repeat(SIZE) }]],
    ['a newline then spaces and tabs', [{ kind: 'text', place: null, text: `a\n${fill(' \t', SIZE)}b` }]],
    ['sentences of one letter', [{ kind: 'text', place: null, text: fill('a. ', SIZE) }]],
    ['blank-line runs', [{ kind: 'text', place: null, text: fill('x\n \t\n\n', SIZE) }]],
    ['100,000 short rows', [{ kind: 'rows', sheet: 'S', rows: Array.from({ length: 100_000 }, (_, i) => ({ n: i + 2, line: `a: ${i}` })) }]],
    ['one row of 1 MB', [{ kind: 'rows', sheet: null, rows: [{ n: 2, line: 'v'.repeat(SIZE) }] }]],
  ];
  it.each(sections)('chunking %s in under 1 s', async (_name, input) => {
    expect(await cpuMs(() => chunkSections(input))).toBeLessThan(LIMIT_MS);
  });

  it('a PDF page of a long run of spaces: its lines trimmed in under 1 s', async () => {
    const page = `${' '.repeat(SIZE)}x\n${'\t '.repeat(SIZE / 2)}\ny  \n`;
    let clean = '';
    expect(await cpuMs(() => (clean = withoutTrailingSpaces(page)))).toBeLessThan(LIMIT_MS);
    expect(clean).toBe(`${' '.repeat(SIZE)}x\n\ny`.concat('\n'));
  });
});

// The scans that replaced the patterns read what the patterns read (and, where a pattern misread, what the file says).
describe('the scans read as the patterns did', () => {
  it('finds ATX headings as the Markdown pattern did', () => {
    expect(atxHeading('# Title')).toBe('Title');
    expect(atxHeading('   ### Title ###  ')).toBe('Title');
    expect(atxHeading('## Title#')).toBe('Title');
    expect(atxHeading('# ')).toBe('');
    expect(atxHeading('#\tTabbed')).toBe('Tabbed');
    expect(atxHeading(`# a${' '.repeat(50)}x`)).toBe(`a${' '.repeat(50)}x`);
    for (const line of ['#Title', '####### Seven', '    # Indented four', 'Text # not', '#']) expect(atxHeading(line)).toBeUndefined();
    const md = extractMarkdown(Buffer.from('Intro\n\n## Setup ##\nRun it.\n\nNotes\n-----\nMore.\n```\n# not a heading\n```\n'));
    expect(md.sections.map((s) => [s.kind === 'text' && s.place, s.kind === 'text' && s.text])).toEqual([
      [null, 'Intro'],
      ['Setup', 'Run it.'],
      ['Notes', 'More.\n```\n# not a heading\n```'],
    ]);
  });

  it('reads elements, empty ones included, and stops at a start tag without its end', () => {
    const xml = '<row r="1"><c r="A1"><v>1</v></c><c r="B1"/><cx>no</cx><c r="C1" t="s"><v>2</v></c></row><row r="2"/><row r="3"><c>';
    expect(elements(xml, 'row').map((e) => e.tag)).toEqual(['<row r="1">', '<row r="2"/>']);
    expect(elements(elements(xml, 'row')[0].body, 'c')).toEqual([
      { tag: '<c r="A1">', body: '<v>1</v>' },
      { tag: '<c r="B1"/>', body: '' },
      { tag: '<c r="C1" t="s">', body: '<v>2</v>' },
    ]);
    expect(startTags('<Relationships><Relationship Id="a" Target="x"/><Relationship\nId="b">', 'Relationship')).toEqual([
      '<Relationship Id="a" Target="x"/>',
      '<Relationship\nId="b">',
    ]);
  });

  it("splits mammoth's HTML at headings, each block's text a paragraph", () => {
    const html =
      '<p>Before &amp; after</p><h1>Leave <strong>policy</strong></h1><p>Annual<br />leave</p>' +
      '<table><tr><td><p>One</p><p>Two</p></td></tr></table><ul><li>Item<ul><li>Sub</li></ul></li></ul><h2></h2><p>End</p>';
    expect(sectionsFromHtml(html)).toEqual([
      { kind: 'text', place: null, text: 'Before & after' },
      { kind: 'text', place: 'Leave policy', text: 'Annual\nleave\n\nOne\n\nTwo\n\nItem\n\nSub\n\nEnd' },
    ]);
  });

  const zip = (parts: Record<string, string>) => zipSync(Object.fromEntries(Object.entries(parts).map(([n, t]) => [n, strToU8(t)])));

  it('reads each sheet part once, empty shared strings in their place, and no cell past column XFD', () => {
    const bytes = zip({
      'xl/workbook.xml': '<workbook><sheets><sheet name="A" r:id="rId1"/><sheet name="B" r:id="rId1"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels': '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      'xl/sharedStrings.xml': '<sst><si><t>Name</t></si><si/><si><r><t>Ai</t></r><r><t xml:space="preserve">sha</t></r></si></sst>',
      'xl/worksheets/sheet1.xml':
        '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2" ht="20"/>' +
        '<row r="3"><c r="B3"><v>7</v></c><c r="A3" t="s"><v>2</v></c><c r="XFD3"><v>last</v></c><c r="XFE3"><v>past</v></c></row></sheetData>',
    });
    expect(extractXlsx(bytes).sections).toEqual([{ kind: 'rows', sheet: 'A', rows: [{ n: 3, line: 'Name: Aisha; column 2: 7; column 16384: last' }] }]);
  });

  it('reads each slide once, in the order of the slide list', () => {
    const bytes = zip({
      'ppt/presentation.xml': '<p:presentation><p:sldIdLst><p:sldId r:id="rId2"/><p:sldId r:id="rId1"/><p:sldId r:id="rId2"/></p:sldIdLst></p:presentation>',
      'ppt/_rels/presentation.xml.rels':
        '<Relationships><Relationship Id="rId1" Target="slides/slide1.xml"/><Relationship Id="rId2" Target="slides/slide2.xml"/></Relationships>',
      'ppt/slides/slide1.xml': '<p:sld><a:p><a:pPr/><a:r><a:t>One</a:t></a:r></a:p><a:p/></p:sld>',
      'ppt/slides/slide2.xml': '<p:sld><a:p><a:r><a:t>Two &amp; </a:t></a:r><a:r><a:t>more</a:t></a:r></a:p></p:sld>',
    });
    expect(extractPptx(bytes).sections).toEqual([
      { kind: 'text', place: 'slide 1', text: 'Two & more' },
      { kind: 'text', place: 'slide 2', text: 'One' },
    ]);
  });
});
