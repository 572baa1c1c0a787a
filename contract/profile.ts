import { z } from 'zod';
import { user } from './user';

export const updateProfileRequest = z.object({
  department_id: z.string({ error: 'Department is required' }).min(1, 'Department is required').max(64),
  unit_id: z.string().min(1).max(64).nullable().optional(),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;

/** The update may carry fresh tokens; when it does they replace the session. */
export const updateProfileResponse = z.object({
  user,
  access_token: z.string().optional(),
  refresh_token: z.string().optional(),
});
export type UpdateProfileResponse = z.infer<typeof updateProfileResponse>;
