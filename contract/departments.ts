import { z } from 'zod';
import {
  DEPARTMENT_NAME_NOT_TEXT,
  DEPARTMENT_NAME_REQUIRED,
  DEPARTMENT_NAME_TOO_LONG,
  NAME_MAX_LENGTH,
  UNIT_NAME_NOT_TEXT,
  UNIT_NAME_REQUIRED,
  UNIT_NAME_TOO_LONG,
} from './departments-constants';
import { pageFields } from './envelope';
import { choiceField, idField, pageField, pageSizeField, queryText, requestBody, requiredText } from './fields';

export const unit = z.object({ id: z.string(), name: z.string() });
export type Unit = z.infer<typeof unit>;

export const department = z.object({ id: z.string(), name: z.string(), units: z.array(unit) });
export type Department = z.infer<typeof department>;

export const DEPARTMENT_PAGE_SIZE = 10;

export const departmentListQuery = z.object({
  page: pageField(),
  page_size: pageSizeField(DEPARTMENT_PAGE_SIZE),
  search: queryText('search', 100).optional(),
  /** The superuser names the organisation to read; anyone else may name only their own. */
  client_id: idField('client_id').optional(),
  /** `paginate=false` returns every department of the organisation (Profile selects). */
  paginate: choiceField('paginate', ['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
export type DepartmentListQuery = z.input<typeof departmentListQuery>;

export const departmentList = z.object({ departments: z.array(department), ...pageFields });
export type DepartmentList = z.infer<typeof departmentList>;

/** A department's or unit's name: trimmed, required, at most NAME_MAX_LENGTH characters. */
const nameField = (required: string, notText: string, tooLong: string) =>
  z
    .string(requiredText(required, notText))
    .trim()
    .min(1, required)
    .max(NAME_MAX_LENGTH, tooLong)
    .describe(`Trimmed; at most ${NAME_MAX_LENGTH} characters; unique case-insensitively.`);

/** POST /departments/ and PUT /departments/{id}. Unique within the organisation. */
export const departmentRequest = requestBody({ name: nameField(DEPARTMENT_NAME_REQUIRED, DEPARTMENT_NAME_NOT_TEXT, DEPARTMENT_NAME_TOO_LONG) });
export type DepartmentRequest = z.input<typeof departmentRequest>;

/** POST /departments/{id}/units and PUT /departments/{id}/units/{unitId}. Unique within the department. */
export const unitRequest = requestBody({ name: nameField(UNIT_NAME_REQUIRED, UNIT_NAME_NOT_TEXT, UNIT_NAME_TOO_LONG) });
export type UnitRequest = z.input<typeof unitRequest>;

/** `{ id, unitId }` path parameters: a unit of a department. */
export const unitParams = z.object({ id: idField('id'), unitId: idField('unitId') });

/** DELETE of a department or a unit: how many people it belonged to, who now have no department (sent to Profile). */
export const departmentDeletion = z.object({ message: z.string(), unassigned_users: z.number().int().min(0) });
export type DepartmentDeletion = z.infer<typeof departmentDeletion>;
