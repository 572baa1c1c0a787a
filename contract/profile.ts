import { z } from 'zod';
import { requestBody, requiredText } from './fields';
import { user } from './user';

export const updateProfileRequest = requestBody({
  department_id: z.string(requiredText('Department is required', 'department_id must be an id')).min(1, 'Department is required').max(64, 'Department not found'),
  unit_id: z.string({ error: 'unit_id must be an id or null' }).min(1, 'unit_id must be an id or null').max(64, 'Unit does not belong to the selected department').nullable().optional(),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;

/** The update may carry fresh tokens; when it does they replace the session. */
export const updateProfileResponse = z.object({
  user,
  access_token: z.string().optional(),
  refresh_token: z.string().optional(),
});
export type UpdateProfileResponse = z.infer<typeof updateProfileResponse>;
