import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** A CSV download's 200 besides the JSON one, for the OpenAPI document. */
export const csvContent = { 'text/csv': { schema: z.string().describe('CSV with a header row') } };

/**
 * Sends rows as a CSV attachment, streamed: rows are quoted by csv-stringify as they arrive from the
 * database, so a large export never sits whole in memory. `fileName` must be plain ASCII (it goes into a header).
 *
 * Text cells are names people typed (users, departments, units): one starting with =, +, -, @, a tab or a carriage
 * return (or their full-width forms) would run as a formula when the file is opened in a spreadsheet, so it gets a
 * leading apostrophe (csv-stringify's escape_formulas). Number cells are left as they are, negative ones included:
 * pass numbers as numbers, never as formatted text starting with '-'.
 */
export function sendCsv(reply: FastifyReply, fileName: string, header: string[], rows: AsyncIterable<(string | number)[]>): FastifyReply {
  const csv = Readable.from(rows).pipe(stringify({ header: true, columns: header, escape_formulas: true }));
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(csv);
}
