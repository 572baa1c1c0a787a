import { z } from 'zod';
import { pageFields } from './envelope';
import { choiceField, pageField, pageSizeField, queryText } from './fields';

export const unit = z.object({ id: z.string(), name: z.string() });
export type Unit = z.infer<typeof unit>;

export const department = z.object({ id: z.string(), name: z.string(), units: z.array(unit) });
export type Department = z.infer<typeof department>;

export const DEPARTMENT_PAGE_SIZE = 10;

export const departmentListQuery = z.object({
  page: pageField(),
  page_size: pageSizeField(DEPARTMENT_PAGE_SIZE),
  search: queryText('search', 100).optional(),
  /** `paginate=false` returns every department of the organisation (Profile selects). */
  paginate: choiceField('paginate', ['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
export type DepartmentListQuery = z.input<typeof departmentListQuery>;

export const departmentList = z.object({ departments: z.array(department), ...pageFields });
export type DepartmentList = z.infer<typeof departmentList>;
