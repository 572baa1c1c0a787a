import { z } from 'zod';
import { pageFields } from './envelope';

export const unit = z.object({ id: z.string(), name: z.string() });
export type Unit = z.infer<typeof unit>;

export const department = z.object({ id: z.string(), name: z.string(), units: z.array(unit) });
export type Department = z.infer<typeof department>;

export const DEPARTMENT_PAGE_SIZE = 10;

export const departmentListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(DEPARTMENT_PAGE_SIZE),
  search: z.string().trim().max(100).optional(),
  /** `paginate=false` returns every department of the organisation (Profile selects). */
  paginate: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
export type DepartmentListQuery = z.input<typeof departmentListQuery>;

export const departmentList = z.object({ departments: z.array(department), ...pageFields });
export type DepartmentList = z.infer<typeof departmentList>;
