import { describe, expect, it } from 'vitest';
import { sanitiseFilename } from '../../server/services/documents/documents';

// The display name of an upload (issue 27): characters that draw nothing, or turn the text around them, must not
// survive, or "invoice\u202Efdp.exe" reads as "invoiceexe.pdf" and two names that look the same differ.

const INVISIBLE = [
  ['U+061C ARABIC LETTER MARK', '\u061c'],
  ['U+200B ZERO WIDTH SPACE', '\u200b'],
  ['U+200C ZERO WIDTH NON-JOINER', '\u200c'],
  ['U+200D ZERO WIDTH JOINER', '\u200d'],
  ['U+200E LEFT-TO-RIGHT MARK', '\u200e'],
  ['U+200F RIGHT-TO-LEFT MARK', '\u200f'],
  ['U+202A LEFT-TO-RIGHT EMBEDDING', '\u202a'],
  ['U+202B RIGHT-TO-LEFT EMBEDDING', '\u202b'],
  ['U+202C POP DIRECTIONAL FORMATTING', '\u202c'],
  ['U+202D LEFT-TO-RIGHT OVERRIDE', '\u202d'],
  ['U+202E RIGHT-TO-LEFT OVERRIDE', '\u202e'],
  ['U+2060 WORD JOINER', '\u2060'],
  ['U+2061 FUNCTION APPLICATION', '\u2061'],
  ['U+2062 INVISIBLE TIMES', '\u2062'],
  ['U+2063 INVISIBLE SEPARATOR', '\u2063'],
  ['U+2064 INVISIBLE PLUS', '\u2064'],
  ['U+2066 LEFT-TO-RIGHT ISOLATE', '\u2066'],
  ['U+2067 RIGHT-TO-LEFT ISOLATE', '\u2067'],
  ['U+2068 FIRST STRONG ISOLATE', '\u2068'],
  ['U+2069 POP DIRECTIONAL ISOLATE', '\u2069'],
  ['U+FEFF ZERO WIDTH NO-BREAK SPACE (BOM)', '\ufeff'],
] as const;

describe('the display name of an upload', () => {
  it.each(INVISIBLE)('drops %s wherever it stands', (_name, char) => {
    expect(sanitiseFilename(`${char}re${char}port${char}.pdf${char}`)).toBe('report.pdf');
  });

  it('drops them all together, and an override cannot turn an .exe into a .pdf', () => {
    const all = INVISIBLE.map(([, c]) => c).join('');
    expect(sanitiseFilename(`invoice${all}fdp.exe`)).toBe('invoicefdp.exe');
    expect(sanitiseFilename(`${all}.txt`)).toBe('.txt');
    expect(sanitiseFilename(all)).toBe('file');
  });

  it('keeps the letters of every script, Arabic among them', () => {
    expect(sanitiseFilename('تقرير الربع.pdf')).toBe('تقرير الربع.pdf');
    expect(sanitiseFilename('Grüße – 東京 ✓.docx')).toBe('Grüße – 東京 ✓.docx');
  });
});
