import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Department names are unique within an organisation and unit names within a department, case-insensitively
// (administration spec: Departments page). Names that clash already (only possible by hand: no route created them
// before this) are first told apart by their id, the oldest keeping its name, so the indexes can be built.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update departments set name = name || ' (' || id || ')'
    where exists (
      select 1 from departments earlier
      where earlier.client_id = departments.client_id
        and lower(earlier.name) = lower(departments.name)
        and (earlier.created_at < departments.created_at or (earlier.created_at = departments.created_at and earlier.id < departments.id))
    )`.execute(db);
  await sql`
    update units set name = name || ' (' || id || ')'
    where exists (
      select 1 from units earlier
      where earlier.department_id = units.department_id and lower(earlier.name) = lower(units.name) and earlier.id < units.id
    )`.execute(db);
  await db.schema
    .createIndex('departments_client_id_lower_name_uq')
    .on('departments')
    .column('client_id')
    .expression(sql`lower(name)`)
    .unique()
    .execute();
  await db.schema
    .createIndex('units_department_id_lower_name_uq')
    .on('units')
    .column('department_id')
    .expression(sql`lower(name)`)
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('units_department_id_lower_name_uq').execute();
  await db.schema.dropIndex('departments_client_id_lower_name_uq').execute();
}
