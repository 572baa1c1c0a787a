import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentView } from '../../contract/documents';
import { uploadContentMismatch } from '../../contract/documents-constants';
import { TOO_MANY_PARTS, ZIP_BOMB, ZIP_LIES } from '../../server/services/documents/upload-check';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { uploadFile, type Uploaded } from './helpers/document-api';
import { docxFile, xlsxFile } from './helpers/document-fixtures';
import { deflatedFill, manyEntriesZip, withBombPart } from './helpers/zip-bombs';
import { dbKind } from './helpers/test-app';

// Issue 27: a .docx of a few hundred KB whose [Content_Types].xml inflates to hundreds of MB used to be inflated
// whole on the main thread (by file-type, before the zip-bomb check): about 5 s with the event loop blocked and
// +1 to +2 GB of memory per upload. Its zip directory is read first now, and nothing large is inflated on the main
// thread. The peak RSS is the process's: a test sees only growth past the peaks of the tests before it.

const MB = 1024 * 1024;
const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
  '</Types>';
const WORD_BODY = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>';

/** The generous bounds the issue asks for (the old code took 4-5 s and +1 GB or more). */
const REFUSED_WITHIN_MS = 1000;
const HEALTH_WITHIN_MS = 1000;
const RSS_GROWTH_MAX = 200 * MB;
/** Long enough for the old code to answer (and fail on the numbers rather than on a timeout). */
const SLOW_OLD_CODE_MS = 90_000;

interface Probe<T> {
  result: T;
  ms: number;
  /** The slowest GET /health answered while `work` ran (there is always at least one). */
  healthMaxMs: number;
  /** How much the process's peak RSS rose while `work` ran. */
  peakRssGrowth: number;
}

/** Runs `work` while GET /health is asked again and again, timing both and watching the process's peak RSS. */
async function probe<T>(s: ChatServer, work: () => Promise<T>): Promise<Probe<T>> {
  const peakBefore = process.resourceUsage().maxRSS * 1024;
  let done = false;
  const latencies: number[] = [];
  const health = (async () => {
    do {
      const started = performance.now();
      // A health check that fails counts as never answered.
      const answered = await fetch(`${s.apiUrl}/health`).then((res) => res.arrayBuffer()).then(() => true, () => false);
      latencies.push(answered ? performance.now() - started : Infinity);
    } while (!done);
  })();
  const started = performance.now();
  const result = await work().finally(() => {
    done = true;
  });
  const ms = performance.now() - started;
  await health;
  const peakRssGrowth = process.resourceUsage().maxRSS * 1024 - peakBefore;
  // Printed for the record (the issue asks for the numbers before and after).
  console.log(`${dbKind}: ${Math.round(ms)} ms, health max ${Math.round(Math.max(...latencies))} ms, peak RSS +${Math.round(peakRssGrowth / MB)} MB`);
  return { result, ms, healthMaxMs: Math.max(...latencies), peakRssGrowth };
}

function expectQuickAndFlat(p: Probe<unknown>): void {
  expect(p.ms).toBeLessThan(REFUSED_WITHIN_MS);
  expect(p.healthMaxMs).toBeLessThan(HEALTH_WITHIN_MS);
  expect(p.peakRssGrowth).toBeLessThan(RSS_GROWTH_MAX);
}

describe(`zip bombs in office uploads (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s.close());

  const upload = (filename: string, bytes: Uint8Array) => uploadFile(s, null, filename, bytes);
  const expectRefused = (res: Uploaded, status: number, detail: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.detail).toBe(detail);
  };

  it.each([
    [600, 'about 600 KB'],
    [300, 'about 300 KB'],
  ])('refuses a .docx whose [Content_Types].xml unpacks to %i MB (%s) with 413 in well under a second, health answering and memory flat', async (fillMb) => {
    const bomb = withBombPart(docxFile(['Hello']), '[Content_Types].xml', deflatedFill(CONTENT_TYPES, fillMb));
    expect(bomb.length).toBeGreaterThan(fillMb * 900);
    expect(bomb.length).toBeLessThan(fillMb * 1100);
    const p = await probe(s, () => upload('report.docx', bomb));
    expectRefused(p.result, 413, ZIP_BOMB);
    expectQuickAndFlat(p);
  }, SLOW_OLD_CODE_MS);

  it('refuses a .docx whose directory lies (its [Content_Types].xml declares 1 KB and unpacks to 600 MB) with 413, without inflating it', async () => {
    const bomb = withBombPart(docxFile(['Hello']), '[Content_Types].xml', deflatedFill(CONTENT_TYPES, 600), 1024);
    const p = await probe(s, () => upload('report.docx', bomb));
    expectRefused(p.result, 413, ZIP_LIES);
    expectQuickAndFlat(p);
  }, SLOW_OLD_CODE_MS);

  it('refuses a zip bomb named as an image or a PDF as a mismatch (415), without opening it', async () => {
    const bomb = withBombPart(docxFile(['Hello']), '[Content_Types].xml', deflatedFill(CONTENT_TYPES, 600));
    for (const name of ['photo.png', 'scan.pdf', 'song.mp3']) {
      const p = await probe(s, () => upload(name, bomb));
      expectRefused(p.result, 415, uploadContentMismatch(name.slice(name.lastIndexOf('.'))));
      expectQuickAndFlat(p);
    }
  }, SLOW_OLD_CODE_MS);

  it('refuses a zip of more than 10,000 parts with 413 and its own reason', async () => {
    const res = await upload('many.docx', manyEntriesZip(docxFile(['Hello']), 10_001));
    expectRefused(res, 413, TOO_MANY_PARTS);
    // Exactly the limit is not refused for its number of parts.
    const atLimit = await upload('limit.docx', manyEntriesZip(docxFile(['Hello']), 10_000));
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(201);
  });

  it.each([
    ['report.docx', 'word/document.xml', WORD_BODY],
    ['sheet.xlsx', 'xl/sharedStrings.xml', '<sst><si><t>'],
  ])(
    'accepts %s whose %s declares 1 KB but unpacks to 600 MB, and its reading fails without the memory jumping',
    async (filename, partName, prefix) => {
      const document = filename.endsWith('.docx') ? docxFile(['Hello']) : xlsxFile({ S: [['a']] });
      const bomb = withBombPart(document, partName, deflatedFill(prefix, 600), 1024);
      const p = await probe(s, async () => {
        const up = await upload(filename, bomb);
        expect(up.status, JSON.stringify(up.body)).toBe(201);
        return eventually(async () => {
          const res = await s.api<DocumentView>('GET', `/documents/${up.body.data.id}`);
          return ['ready', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
        }, 15_000);
      });
      expect(p.result.status).toBe('failed');
      expect(p.result.error).toMatch(/unpacks to more than/);
      expect(p.healthMaxMs).toBeLessThan(HEALTH_WITHIN_MS);
      expect(p.peakRssGrowth).toBeLessThan(RSS_GROWTH_MAX);
    },
    SLOW_OLD_CODE_MS,
  );
});
